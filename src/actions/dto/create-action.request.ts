import { NotesUnknownFields } from '../../common/body-validation.pipe';
import { ActionNameField, DescriptionField, JsonSchemaField, WebhookUrlField } from './action-fields';
import { actionFieldAdvice } from './field-advice';

/**
 * POST /actions (spec 4.1): all four fields required. Unknown and read-only fields are dropped (the contract); a
 * body refused for another reason names its unknown fields too, with the field likely meant.
 */
@NotesUnknownFields(actionFieldAdvice(['name', 'description', 'webhook_url', 'json_schema']), ['id', 'tenant_id', 'created_at', 'updated_at'])
export class CreateActionRequest {
  @ActionNameField()
  name: string;

  @DescriptionField(true)
  description: string;

  @WebhookUrlField(true)
  webhook_url: string;

  @JsonSchemaField(true)
  json_schema: Record<string, unknown>;
}
