import { IsDefined, IsString, ValidateIf } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { Checks } from '../../common/checks';

/** POST …/executions/replay: which failed executions to replay. */
export class BulkReplayRequest {
  @Checks(
    ApiProperty({ format: 'date-time', example: '2026-11-27T10:00:00Z', description: 'Replay the failed executions created at or after this RFC 3339 date-time; it must be in the past (400 otherwise)' }),
    IsDefined({ message: 'is required' }),
    IsString({ message: 'must be an RFC 3339 date-time, like 2026-11-27T10:00:00Z' }),
  )
  since: string;

  @Checks(
    ApiProperty({ required: false, format: 'date-time', description: 'Up to (not including) this date-time, later than since (400 otherwise); default, and at the latest: now' }),
    ValidateIf((_, value) => value !== undefined),
    IsString({ message: 'must be an RFC 3339 date-time, like 2026-11-27T10:00:00Z' }),
  )
  until?: string;
}

/** A bulk replay and how far it got. */
export class BulkReplayDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'get_weather' })
  action_name: string;

  @ApiProperty({ format: 'date-time' })
  since: string;

  @ApiProperty({ format: 'date-time', description: 'The end of the period: the given until, or the moment the replay was asked for' })
  until: string;

  @ApiProperty({ enum: ['running', 'done', 'stopped'] })
  status: 'running' | 'done' | 'stopped';

  @ApiProperty({ type: 'string', nullable: true, example: "the tenant's hourly request budget is spent (1000); try again in 1200 s" })
  stopped_reason: string | null;

  @ApiProperty({ type: 'integer', description: 'Failed executions in the period when it started (at most 1,000)' })
  total: number;

  @ApiProperty({ type: 'integer' })
  done: number;

  @ApiProperty({ type: 'integer', description: 'total - done' })
  left: number;

  @ApiProperty({ type: 'integer', description: 'Replays that succeeded' })
  succeeded: number;

  @ApiProperty({ type: 'integer', description: 'Replays that failed again' })
  failed: number;

  @ApiProperty({ type: 'integer', description: 'Executions that could not be replayed (payload not kept, parameters no longer valid)' })
  skipped: number;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  finished_at: string | null;
}

export class BulkReplayResponse {
  @ApiProperty({ type: BulkReplayDto })
  replay: BulkReplayDto;
}
