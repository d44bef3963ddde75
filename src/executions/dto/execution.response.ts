import { ApiProperty } from '@nestjs/swagger';
import { ExecutionStatus } from '../execution.entity';

/** An execution as the API shows it (contract "Executions"). */
export class ExecutionDto {
  @ApiProperty({ format: 'uuid', description: 'Also the webhook-id header of every attempt' })
  id: string;

  @ApiProperty({ example: 'get_weather' })
  action_name: string;

  @ApiProperty({
    enum: ['succeeded', 'failed', 'pending', 'running'],
    description: 'An execution accepted with `Prefer: respond-async` is `pending`, then `running`, then `succeeded` or `failed`; one run synchronously is stored finished',
  })
  status: ExecutionStatus;

  @ApiProperty({ type: 'integer', nullable: true, example: 200 })
  http_status: number | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Sunny, 21 °C' })
  result: string | null;

  @ApiProperty({ example: '', description: 'Empty on success; the receiver\'s error text or why the call failed' })
  error: string;

  @ApiProperty({ type: 'integer', example: 42 })
  duration_ms: number;

  @ApiProperty({ type: 'integer', example: 1 })
  attempts: number;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

export class ExecutionResponse {
  @ApiProperty({ type: ExecutionDto })
  execution: ExecutionDto;
}

/** An execution as the log lists it: the summary, and the execution it replayed. */
export class LoggedExecutionDto extends ExecutionDto {
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'The original execution this one replayed; null when it is not a replay' })
  replay_of: string | null;
}

export class ExecutionListResponse {
  @ApiProperty({ type: [LoggedExecutionDto], description: 'Newest first' })
  executions: LoggedExecutionDto[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Where the next (older) page starts: pass it as `cursor` with the same filters; null on the last page. Opaque, signed, and valid only for this tenant.',
  })
  next_cursor: string | null;
}

/** A replay's answer: the execution, and the one it replayed. */
class ReplayedExecutionDto extends ExecutionDto {
  @ApiProperty({ format: 'uuid', description: 'The original execution (the first of a chain of replays), whose id is the webhook-id of every replay' })
  replay_of: string;
}

export class ReplayResponse {
  @ApiProperty({ type: ReplayedExecutionDto })
  execution: ReplayedExecutionDto;
}
