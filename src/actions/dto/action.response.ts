import { NEXT_CURSOR_PROPERTY } from '../../common/page-params.decorator';
import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_URL_PATTERN, WEBHOOK_URL_SYNTAX } from './action-fields';

/** The Action of spec 2.1, exactly these fields. */
export class ActionDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  tenant_id: string;

  @ApiProperty({ example: 'get_weather', pattern: '^[a-z0-9_]+$', minLength: 1, maxLength: 100 })
  name: string;

  @ApiProperty({ example: 'Current weather for a city', minLength: 1, maxLength: 500 })
  description: string;

  @ApiProperty({ type: 'object', additionalProperties: true, example: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } })
  json_schema: Record<string, unknown>;

  @ApiProperty({ pattern: WEBHOOK_URL_PATTERN, description: WEBHOOK_URL_SYNTAX, example: 'https://hooks.example.com/weather' })
  webhook_url: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T01:02:03.456Z' })
  created_at: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T01:02:03.456Z' })
  updated_at: string;
}

export class ActionResponse {
  @ApiProperty({ type: ActionDto })
  action: ActionDto;
}

export class ActionListResponse {
  @ApiProperty({ type: [ActionDto], description: 'Every action of the tenant, ordered by name' })
  actions: ActionDto[];
}

/** A page of a tenant's actions, as the management API lists them. */
export class ActionPageResponse {
  @ApiProperty({ type: [ActionDto], description: 'The actions of this page, ordered by name' })
  actions: ActionDto[];

  @ApiProperty(NEXT_CURSOR_PROPERTY)
  next_cursor: string | null;
}
