import { JsonSchemaCompiler } from '../actions/json-schema-compiler';
import { ParameterValidators } from './parameter-validators';

describe('ParameterValidators', () => {
  const action = (version: string, jsonSchema: Record<string, unknown>) => ({ id: 'a', name: 'a', webhookUrl: 'http://x', jsonSchema, version });

  it('compiles a schema once per action version', () => {
    const compiler = new JsonSchemaCompiler();
    const compile = jest.spyOn(compiler, 'compile');
    const validators = new ParameterValidators(compiler);
    const schema = { type: 'object', required: ['city'] };
    for (let i = 0; i < 50; i++) validators.check(action('a@1', schema), { city: 'x' });
    expect(compile).toHaveBeenCalledTimes(1);
    validators.check(action('a@2', { type: 'object' }), {});
    expect(compile).toHaveBeenCalledTimes(2);
  });

  it('names every problem with a path', () => {
    const validators = new ParameterValidators(new JsonSchemaCompiler());
    const schema = { type: 'object', properties: { days: { type: 'integer', minimum: 1 }, tags: { type: 'array', items: { type: 'string' } } }, required: ['days'] };
    expect(validators.check(action('b@1', schema), { days: 1, tags: ['x'] })).toBeUndefined();
    expect(validators.check(action('b@1', schema), { days: 0 })).toBe('parameters.days: must be >= 1');
    expect(validators.check(action('b@1', schema), { days: 2, tags: [3] })).toBe('parameters.tags.0: must be string');
  });

  it('keeps at most 1000 versions, dropping the least recently used', () => {
    const validators = new ParameterValidators(new JsonSchemaCompiler());
    for (let i = 0; i < 1_100; i++) validators.check(action(`v@${i}`, { type: 'object' }), {});
    expect(validators.size).toBe(1_000);
  });
});
