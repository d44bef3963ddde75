import { ActionNameField, DescriptionField, JsonSchemaField, WebhookUrlField } from './action-fields';

/** POST /actions (spec 4.1): all four fields required. Unknown and read-only fields are dropped. */
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
