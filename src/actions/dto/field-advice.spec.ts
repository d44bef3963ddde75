import { BodyValidationPipe } from '../../common/body-validation.pipe';
import { InvalidRequestError } from '../../common/common.errors';
import { CreateActionRequest } from './create-action.request';
import { actionFieldAdvice } from './field-advice';
import { UpdateActionRequest } from './update-action.request';

const pipe = new BodyValidationPipe();
const refusal = (metatype: new () => object, body: Record<string, unknown>): string | undefined => {
  try {
    pipe.transform(body, { type: 'body', metatype });
    return undefined;
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    return error.details;
  }
};
const schema = { type: 'object' };

describe('unknown fields of a registration', () => {
  it.each([
    ['webhook', 'did you mean "webhook_url"?'],
    ['webhookUrl', 'did you mean "webhook_url"?'],
    ['WEBHOOK-URL', 'did you mean "webhook_url"?'],
    ['url', 'did you mean "webhook_url"?'],
    ['callback_url', 'did you mean "webhook_url"?'],
    ['webhok_url', 'did you mean "webhook_url"?'],
    ['schema', 'did you mean "json_schema"?'],
    ['parameters', 'did you mean "json_schema"?'],
    ['inputSchema', 'did you mean "json_schema"?'],
    ['jsonSchema', 'did you mean "json_schema"?'],
    ['descripton', 'did you mean "description"?'],
    ['action_name', 'did you mean "name"?'],
    ['colour', 'this body takes name, description, webhook_url, json_schema'],
  ])('advises on %s: %s', (name, advice) => {
    expect(actionFieldAdvice(['name', 'description', 'webhook_url', 'json_schema'])(name)).toBe(advice);
  });

  it('names them after the problems of a body refused for another reason', () => {
    expect(refusal(CreateActionRequest, { name: 'get_weather', description: 'd', webhook: 'https://h.example.com', schema })).toBe(
      'webhook_url: is required; json_schema: is required; webhook: unknown field (did you mean "webhook_url"?); schema: unknown field (did you mean "json_schema"?)',
    );
    expect(refusal(UpdateActionRequest, { webhook: 'https://h.example.com' })).toBe(
      'body: at least one of description, webhook_url, json_schema is required; webhook: unknown field (did you mean "webhook_url"?)',
    );
    // Read-only fields are ignored by name (the contract), not unknown.
    expect(refusal(UpdateActionRequest, { name: 'renamed', id: 'x', updated_at: 'y' })).toBe('body: at least one of description, webhook_url, json_schema is required');
    expect(refusal(UpdateActionRequest, { action_name: 'renamed' })).toBe(
      'body: at least one of description, webhook_url, json_schema is required; action_name: unknown field (this body takes description, webhook_url, json_schema)',
    );
  });

  it('lists ten, counts the rest, and cuts and quotes names as the refusals of execute do', () => {
    const body: Record<string, unknown> = { description: '' };
    for (let n = 0; n < 12; n++) body[`extra_${n}`] = n;
    body['a b'] = 1;
    const details = refusal(UpdateActionRequest, body)!;
    expect(details.startsWith('description: must be 1 to 500 characters; extra_0: unknown field (')).toBe(true);
    expect(details.endsWith('; and 3 more unknown fields')).toBe(true);
    expect(refusal(UpdateActionRequest, { ['x'.repeat(200)]: 1 })).toContain(`"${'x'.repeat(64)}…": unknown field`);
  });

  it('leaves a valid body\'s unknown fields ignored: no refusal', () => {
    expect(refusal(CreateActionRequest, { name: 'a', description: 'd', webhook_url: 'https://h.example.com', json_schema: schema, webhook: 'x', colour: 1 })).toBeUndefined();
    expect(refusal(UpdateActionRequest, { description: 'd', webhookUrl: 'https://h.example.com' })).toBeUndefined();
  });
});
