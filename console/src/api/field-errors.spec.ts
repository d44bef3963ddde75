import { ApiError } from './client';
import { splitError } from './field-errors';

const ACTION_FIELDS = ['name', 'description', 'webhook_url', 'json_schema'] as const;

describe('splitError (the service\'s refusal, under the fields it names)', () => {
  it('puts each part of a validation 400 under its field, without the field\'s name', () => {
    const error = new ApiError(400, 'Invalid request', 'name: must match ^[a-z0-9_]+$; description: must be at most 500 characters; webhook_url: must be an http or https URL');
    expect(splitError(error, ACTION_FIELDS)).toEqual({
      fields: { name: 'must match ^[a-z0-9_]+$', description: 'must be at most 500 characters', webhook_url: 'must be an http or https URL' },
      rest: [],
    });
  });

  it('keeps the path into a nested field, and a "; " inside a problem\'s own text', () => {
    const error = new ApiError(400, 'Invalid request', 'json_schema.properties.city: unknown keyword "a; b"; json_schema: "strng" is not a JSON Schema type');
    expect(splitError(error, ACTION_FIELDS).fields).toEqual({
      json_schema: 'properties.city: unknown keyword "a; b"; "strng" is not a JSON Schema type',
    });
  });

  it('leaves for the summary what names no field of the form', () => {
    expect(splitError(new ApiError(400, 'Invalid request', 'body: must be a JSON object'), ACTION_FIELDS)).toEqual({ fields: {}, rest: ['body: must be a JSON object'] });
    expect(splitError(new ApiError(400, 'Invalid request', 'name: is required; expires_at: must be in the future'), ['name'])).toEqual({
      fields: { name: 'is required' },
      rest: ['expires_at: must be in the future'],
    });
    // A field whose name starts another's is not taken for it.
    expect(splitError(new ApiError(400, 'Invalid request', 'names: x'), ['name']).fields).toEqual({});
  });

  it('ties the registration test to the webhook URL and a taken name to the name', () => {
    const test = new ApiError(400, 'action validation failed: webhook endpoint returned status 500');
    expect(splitError(test, ACTION_FIELDS).fields).toEqual({ webhook_url: 'action validation failed: webhook endpoint returned status 500' });
    const taken = new ApiError(409, "action with name 'get_weather' already exists");
    expect(splitError(taken, ACTION_FIELDS).fields).toEqual({ name: 'an action with this name already exists' });
  });

  it('ties nothing else to a field: a limit, a network failure, an error that is no ApiError', () => {
    expect(splitError(new ApiError(403, 'action limit reached: a tenant may have at most 100 actions'), ACTION_FIELDS)).toEqual({ fields: {}, rest: [] });
    expect(splitError(new ApiError(0, 'The service cannot be reached', 'check your connection and try again'), ACTION_FIELDS)).toEqual({ fields: {}, rest: [] });
    expect(splitError(new SyntaxError('Unexpected token'), ACTION_FIELDS)).toEqual({ fields: {}, rest: [] });
  });
});
