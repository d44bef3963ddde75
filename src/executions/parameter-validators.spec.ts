import { JsonSchemaCompiler } from '../actions/json-schema-compiler';
import { SchemaSandbox } from '../actions/schema/schema-sandbox';
import { ParameterValidators } from './parameter-validators';
import { AppConfig } from '../config/app-config';
import { tracingSettings } from '../config/tracing-config';
import { Metrics } from '../metrics/metrics';
import { Tracing } from '../tracing/tracing';

/** Tracing as an environment without OTEL_* variables configures it: off. */
const tracingOff = (metrics = new Metrics()) =>
  new Tracing(
    {
      tracing: tracingSettings({}, () => undefined, () => undefined),
    } as AppConfig,
    metrics,
  );


const tracing = tracingOff();

describe('ParameterValidators', () => {
  const action = (version: string, jsonSchema: Record<string, unknown>) => ({ id: 'a', tenantId: 't', name: 'a', webhookUrl: 'http://x', jsonSchema, version, payloadLogging: true });
  const sandbox = new SchemaSandbox();
  afterAll(() => sandbox.onApplicationShutdown());

  it('prepares a schema once per action version', async () => {
    const compiler = new JsonSchemaCompiler(sandbox);
    const prepare = jest.spyOn(compiler, 'prepare');
    const validators = new ParameterValidators(compiler, tracing);
    const schema = { type: 'object', required: ['city'] };
    for (let i = 0; i < 50; i++) await validators.check(action('a@1', schema), { city: 'x' });
    expect(prepare).toHaveBeenCalledTimes(1);
    await validators.check(action('a@2', { type: 'object' }), {});
    expect(prepare).toHaveBeenCalledTimes(2);
  });

  it('names every problem with a path', async () => {
    const validators = new ParameterValidators(new JsonSchemaCompiler(sandbox), tracing);
    const schema = { type: 'object', properties: { days: { type: 'integer', minimum: 1 }, tags: { type: 'array', items: { type: 'string' } } }, required: ['days'] };
    expect(await validators.check(action('b@1', schema), { days: 1, tags: ['x'] })).toBeUndefined();
    expect(await validators.check(action('b@1', schema), { days: 0 })).toBe('parameters.days: must be >= 1');
    expect(await validators.check(action('b@1', schema), { days: 2, tags: [3] })).toBe('parameters.tags.0: must be string');
  });

  it('checks on the event loop while the cost is small, in the worker past it, with the same answers', async () => {
    const compiler = new JsonSchemaCompiler(sandbox);
    const isolated = jest.spyOn(compiler, 'checkIsolated');
    const validators = new ParameterValidators(compiler, tracing);
    const schema = { type: 'object', properties: { tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } } } };
    expect(await validators.check(action('c@1', schema), { tags: ['a', 'B'] })).toBe('parameters.tags.1: must match pattern "^[a-z]+$"');
    expect(isolated).not.toHaveBeenCalled();
    const many = [...Array.from({ length: 50_000 }, () => 'abc'), 'B'];
    expect(await validators.check(action('c@1', schema), { tags: many })).toBe('parameters.tags.50000: must match pattern "^[a-z]+$"');
    expect(isolated).toHaveBeenCalledTimes(1);
  });

  it('answers for a stored schema that no longer compiles', async () => {
    const validators = new ParameterValidators(new JsonSchemaCompiler(sandbox), tracing);
    expect(await validators.check(action('d@1', { type: 'object', properties: { a: { minimum: 'one' } } }), {})).toBe(
      "parameters: cannot be checked: the action's json_schema no longer compiles",
    );
  });

  it('keeps at most 1000 versions, dropping the least recently used', async () => {
    const validators = new ParameterValidators(new JsonSchemaCompiler(sandbox), tracing);
    for (let i = 0; i < 1_100; i++) await validators.check(action(`v@${i}`, { type: 'object' }), {});
    expect(validators.size).toBe(1_000);
  });
});
