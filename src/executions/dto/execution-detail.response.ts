import { ApiProperty } from '@nestjs/swagger';
import { LoggedExecutionDto } from './execution.response';

/** One try at delivering an execution. */
class AttemptDto {
  @ApiProperty({ type: 'integer', example: 1, description: '1 for the first try, then each retry' })
  attempt: number;

  @ApiProperty({ format: 'date-time' })
  started_at: string;

  @ApiProperty({ type: 'integer', example: 12 })
  duration_ms: number;

  @ApiProperty({ type: 'integer', nullable: true, example: 503, description: 'The receiver\'s status; null when there was no answer' })
  http_status: number | null;

  @ApiProperty({ example: 'webhook endpoint returned status 503', description: 'Empty when this attempt succeeded' })
  error: string;
}

/** A body as the log keeps it (the bounds: docs/decisions.md, "The delivery log"). */
class LoggedBodyDto {
  @ApiProperty({ type: 'string', nullable: true, description: 'The body as text when it is UTF-8, else base64 (body_encoding); null: there was none' })
  body: string | null;

  @ApiProperty({ enum: ['utf8', 'base64'] })
  body_encoding: 'utf8' | 'base64';

  @ApiProperty({ type: 'integer', description: 'Its whole size in bytes before any cut; -1 when larger than the 1 MB read' })
  body_bytes: number;

  @ApiProperty({ description: 'True when only the start is kept (64 KiB of a request, 16 KiB of an answer)' })
  body_truncated: boolean;
}

class LoggedRequestDto extends LoggedBodyDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'The headers sent, credentials left out' })
  headers: Record<string, string>;
}

class LoggedResponseDto extends LoggedBodyDto {
  @ApiProperty({ type: 'integer', example: 200 })
  status: number;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'The receiver\'s answer headers; set-cookie is redacted' })
  headers: Record<string, string>;
}

class LoggedAttemptDto {
  @ApiProperty({ type: 'integer' })
  attempt: number;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'Each attempt is signed afresh: webhook-timestamp and webhook-signature differ' })
  request_headers: Record<string, string>;

  @ApiProperty({ type: LoggedResponseDto, nullable: true, description: 'null when no answer came (a timeout, a connection refused)' })
  response: LoggedResponseDto | null;
}

/** What was sent and what came back, when kept. */
export class ExecutionPayloadDto {
  @ApiProperty({
    enum: ['kept', 'not_logged', 'expired', 'pending'],
    description:
      '`not_logged`: payload logging was off for the action (or the execution predates payloads); `expired`: past EXECUTION_PAYLOAD_RETENTION_DAYS; ' +
      '`pending`: the execution has not finished (it is kept, if at all, when it does)',
  })
  status: 'kept' | 'not_logged' | 'expired' | 'pending';

  @ApiProperty({ type: LoggedRequestDto, nullable: true, description: 'The last attempt\'s request: the exact body signed and sent, and its headers' })
  request: LoggedRequestDto | null;

  @ApiProperty({ type: [LoggedAttemptDto], nullable: true })
  attempts: LoggedAttemptDto[] | null;
}

/** An execution with every attempt it took (the management API's view of the log). */
export class ExecutionDetailDto extends LoggedExecutionDto {
  @ApiProperty({ type: [AttemptDto] })
  attempt_log: AttemptDto[];
}

/** One execution as its lookup shows it: the summary, every attempt, its idempotency key, and the payload. */
export class ExecutionWithPayloadDto extends ExecutionDetailDto {
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: null,
    description: 'The Idempotency-Key it was made under, for the 24 hours the key is kept; null without one (or once the key has expired)',
  })
  idempotency_key: string | null;

  @ApiProperty({ type: ExecutionPayloadDto })
  payload: ExecutionPayloadDto;
}

export class ExecutionDetailResponse {
  @ApiProperty({ type: ExecutionWithPayloadDto })
  execution: ExecutionWithPayloadDto;
}

export class ExecutionDetailListResponse {
  @ApiProperty({ type: [ExecutionDetailDto], description: 'Newest first' })
  executions: ExecutionDetailDto[];

  @ApiProperty({ type: 'string', nullable: true, description: 'Where the next (older) page starts; null on the last page' })
  next_cursor: string | null;
}
