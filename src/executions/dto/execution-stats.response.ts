import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The numbers of one period (or of one action over the last 24 hours). */
class StatsSummaryDto {
  @ApiProperty({ type: 'integer', example: 120 })
  executions: number;

  @ApiProperty({ type: 'integer', example: 117 })
  succeeded: number;

  @ApiProperty({ type: 'integer', example: 3 })
  failed: number;

  @ApiProperty({ type: 'integer', nullable: true, example: 42, description: 'Median duration in ms (from a histogram of ~25 % wide buckets); null with no execution' })
  p50_ms: number | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 180, description: '95th percentile of the duration in ms; null with no execution' })
  p95_ms: number | null;
}

export class StatsPointDto extends StatsSummaryDto {
  @ApiProperty({ format: 'date-time', description: 'The start of the hour or day (UTC)' })
  start: string;
}

class ActionStatsDto extends StatsSummaryDto {
  @ApiProperty({ example: 'get_weather' })
  action_name: string;
}

export class ExecutionStatsDto {
  @ApiProperty({ type: 'string', nullable: true, description: 'The action these numbers are of; null: the whole tenant' })
  action_name: string | null;

  @ApiProperty({ type: [StatsPointDto], description: 'The last 48 hours, one point per hour, oldest first (the last one is the current hour so far)' })
  hourly: StatsPointDto[];

  @ApiProperty({ type: [StatsPointDto], description: 'The retention window (EXECUTION_RETENTION_DAYS), one point per UTC day, oldest first' })
  daily: StatsPointDto[];

  @ApiPropertyOptional({ type: [ActionStatsDto], description: 'Tenant-wide only: each action over the last 24 hours, by name' })
  actions?: ActionStatsDto[];
}

export class ExecutionStatsResponse {
  @ApiProperty({ type: ExecutionStatsDto })
  stats: ExecutionStatsDto;
}
