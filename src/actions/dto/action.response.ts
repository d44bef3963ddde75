/** The Action of spec 2.1, exactly these fields. */
export interface ActionDto {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  json_schema: Record<string, unknown>;
  webhook_url: string;
  created_at: string;
  updated_at: string;
}

export interface ActionResponse {
  action: ActionDto;
}

export interface ActionListResponse {
  actions: ActionDto[];
}
