import { IsBoolean, IsDefined } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { Checks } from '../../common/checks';

/** An action's delivery log settings: kept apart from the Action, whose fields the spec fixes (spec 2.1). */
class LogSettingsDto {
  @ApiProperty({ description: 'Whether executions keep what was sent (parameters, headers) and what came back; default true' })
  payload_logging: boolean;
}

export class LogSettingsResponse {
  @ApiProperty({ type: LogSettingsDto })
  log_settings: LogSettingsDto;
}

/** PUT …/log-settings. */
export class UpdateLogSettingsRequest {
  @Checks(ApiProperty({ description: 'false: executions from now on keep no payload (they cannot be replayed)' }), IsDefined({ message: 'is required' }), IsBoolean({ message: 'must be a boolean' }))
  payload_logging: boolean;
}
