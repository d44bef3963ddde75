import { ApiProperty } from '@nestjs/swagger';
import { ExecutionDto } from './execution.response';

/** One try at delivering an execution. */
export class AttemptDto {
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

/** An execution with every attempt it took (the management API's view of the log). */
export class ExecutionDetailDto extends ExecutionDto {
  @ApiProperty({ type: [AttemptDto] })
  attempt_log: AttemptDto[];
}

export class ExecutionDetailResponse {
  @ApiProperty({ type: ExecutionDetailDto })
  execution: ExecutionDetailDto;
}

export class ExecutionDetailListResponse {
  @ApiProperty({ type: [ExecutionDetailDto], description: 'Newest first' })
  executions: ExecutionDetailDto[];
}
