import { writtenText } from '../../common/json-text';
import { JsonText } from '../../common/json-response';
import { ActionDto } from './action.response';

// Actions as the API sends them, serialized once per action (and per list) the read model shares: a GET or a
// list costs a lookup, not a serialization.
const serialized = new WeakMap<object, string>();

/**
 * An Action as JSON, with its `json_schema` as it was written (the same keys in the same order, every number as
 * sent: contract "Actions"), which JSON.stringify of the parsed object would not give for integer-like keys.
 */
export function actionJson(action: ActionDto): string {
  let text = serialized.get(action);
  if (text === undefined) {
    const string = JSON.stringify;
    text =
      `{"id":${string(action.id)},"tenant_id":${string(action.tenant_id)},"name":${string(action.name)},` +
      `"description":${string(action.description)},"json_schema":${writtenText(action.json_schema)},` +
      `"webhook_url":${string(action.webhook_url)},"created_at":${string(action.created_at)},"updated_at":${string(action.updated_at)}}`;
    serialized.set(action, text);
  }
  return text;
}

/** `{"action": Action}`. */
export function actionBody(action: ActionDto): JsonText {
  return new JsonText(`{"action":${actionJson(action)}}`);
}

/** `{"actions": [Action, ...]}`; a list the read model shares is serialized once. */
export function actionListBody(actions: readonly ActionDto[]): JsonText {
  let text = serialized.get(actions);
  if (text === undefined) {
    text = `{"actions":[${actions.map(actionJson).join(',')}]}`;
    serialized.set(actions, text);
  }
  return new JsonText(text);
}

/** A page of a tenant's actions as the management API sends it: `{"actions": [Action, ...], "next_cursor": ...}`. */
export function actionPageBody(actions: readonly ActionDto[], nextCursor: string | null): JsonText {
  return new JsonText(`{"actions":[${actions.map(actionJson).join(',')}],"next_cursor":${JSON.stringify(nextCursor)}}`);
}
