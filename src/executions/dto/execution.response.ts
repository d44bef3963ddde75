import { ExecutionStatus } from '../execution.entity';

/** An execution as the API shows it (contract "Executions"). */
export interface ExecutionDto {
  id: string;
  action_name: string;
  status: ExecutionStatus;
  http_status: number | null;
  result: string | null;
  error: string;
  duration_ms: number;
  attempts: number;
  created_at: string;
}

export interface ExecutionResponse {
  execution: ExecutionDto;
}

export interface ExecutionListResponse {
  executions: ExecutionDto[];
}
