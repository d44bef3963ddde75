import { closest } from '../schema/schema-mistakes';

/**
 * What other APIs call an action's fields, written without case, `_` or `-`: OpenAI's and MCP's tool definitions
 * (`parameters`, `inputSchema`), webhooks elsewhere (`url`, `endpoint`, `callback_url`), a field cut short (`webhook`,
 * `schema`). Each leads to the field of this API it most likely meant.
 */
const ALIASES: Record<string, string> = {
  url: 'webhook_url',
  uri: 'webhook_url',
  webhook: 'webhook_url',
  webhookuri: 'webhook_url',
  hook: 'webhook_url',
  hookurl: 'webhook_url',
  endpoint: 'webhook_url',
  endpointurl: 'webhook_url',
  callback: 'webhook_url',
  callbackurl: 'webhook_url',
  target: 'webhook_url',
  targeturl: 'webhook_url',
  schema: 'json_schema',
  parameters: 'json_schema',
  params: 'json_schema',
  parametersschema: 'json_schema',
  inputschema: 'json_schema',
  input: 'json_schema',
  desc: 'description',
  summary: 'description',
  actionname: 'name',
  action: 'name',
  title: 'name',
};

const plain = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The advice for a field a registration body does not take (`NotesUnknownFields`): the field of `fields` it most
 * likely meant (the same letters in another case or spelling, a known alias, or a near spelling), else the list
 * of what the body takes.
 */
export function actionFieldAdvice(fields: readonly string[]): (name: string) => string {
  const byPlain = new Map(fields.map((field) => [plain(field), field]));
  return (name) => {
    const key = plain(name);
    const alias = ALIASES[key];
    const meant = byPlain.get(key) ?? (alias && fields.includes(alias) ? alias : undefined) ?? closest(name, fields);
    return meant ? `did you mean "${meant}"?` : `this body takes ${fields.join(', ')}`;
  };
}
