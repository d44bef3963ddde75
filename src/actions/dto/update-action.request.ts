import { DescriptionField, JsonSchemaField, WebhookUrlField } from './action-fields';

/** PUT /actions/{name} (spec 4.2): each field optional, at least one present; the name is not in the body. */
export class UpdateActionRequest {
  @DescriptionField(false)
  description?: string;

  @WebhookUrlField(false)
  webhook_url?: string;

  @JsonSchemaField(false)
  json_schema?: Record<string, unknown>;
}
