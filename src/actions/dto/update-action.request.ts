import { NotesUnknownFields, RequiresOneOf } from '../../common/body-validation.pipe';
import { DescriptionField, JsonSchemaField, WebhookUrlField } from './action-fields';
import { actionFieldAdvice } from './field-advice';

/**
 * PUT /actions/{name} (spec 4.2): each field optional, at least one present; the name is not in the body. Unknown
 * and read-only fields are dropped; a body refused names its unknown fields too, as on create.
 */
@RequiresOneOf('description', 'webhook_url', 'json_schema')
@NotesUnknownFields(actionFieldAdvice(['description', 'webhook_url', 'json_schema']), ['id', 'tenant_id', 'name', 'created_at', 'updated_at'])
export class UpdateActionRequest {
  @DescriptionField(false)
  description?: string;

  @WebhookUrlField(false)
  webhook_url?: string;

  @JsonSchemaField(false)
  json_schema?: Record<string, unknown>;
}
