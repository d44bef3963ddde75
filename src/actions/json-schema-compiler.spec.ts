import { JsonSchemaCompiler, MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from './json-schema-compiler';

describe('JsonSchemaCompiler', () => {
  const compiler = new JsonSchemaCompiler();

  it('compiles draft 2020-12 by default and validates parameters with it', () => {
    const result = compiler.compile({ type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city'], $defs: { unused: { type: 'integer' } } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.validate({ city: 'Oslo', days: 2 })).toBe(true);
    expect(result.validate({ days: 0 })).toBe(false);
  });

  it('compiles draft-07 when $schema says so, with formats', () => {
    const result = compiler.compile({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { at: { type: 'string', format: 'date-time' } } });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.validate({ at: 'not a date' })).toBe(false);
  });

  it('lets two schemas use the same $id', () => {
    expect(compiler.compile({ $id: 'https://example.com/p', type: 'object' }).ok).toBe(true);
    expect(compiler.compile({ $id: 'https://example.com/p', type: 'object' }).ok).toBe(true);
  });

  it('forgets nested $ids once compiled, so memory does not grow with each schema', () => {
    const withIds = (tag: number) => ({
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { $id: `https://example.com/${tag}/${i}`, type: 'string' }])),
    });
    compiler.compile(withIds(0));
    const registry = (compiler as unknown as { draft2020: { refs: object } }).draft2020.refs;
    const before = Object.keys(registry).length;
    for (let tag = 1; tag <= 20; tag++) expect(compiler.compile(withIds(tag)).ok).toBe(true);
    expect(Object.keys(registry).length).toBe(before);
    expect(compiler.compile(withIds(1)).ok).toBe(true);
  });

  it('refuses a schema with more values than the limit before compiling it', () => {
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    expect(compiler.compile(wide)).toEqual({ ok: false, problem: `has more than ${MAX_SCHEMA_NODES} values` });
  });

  it('allows keywords it does not know, as JSON Schema does', () => {
    expect(compiler.compile({ type: 'object', 'x-ui': { widget: 'map' } }).ok).toBe(true);
  });

  it.each([
    [{ type: 'string' }, 'type must be "object"'],
    [{ type: ['object', 'null'] }, 'type must be "object"'],
    [{ $schema: 'http://json-schema.org/draft-04/schema#' }, 'unsupported $schema (use draft 2020-12 or draft-07)'],
    [{ $schema: 42 }, 'unsupported $schema (use draft 2020-12 or draft-07)'],
    [{ properties: { a: { minimum: 'one' } } }, 'is not a valid JSON Schema'],
    [{ $ref: 'https://example.com/remote.json' }, 'is not a valid JSON Schema'],
    [{ $ref: '#/$defs/missing' }, 'is not a valid JSON Schema'],
  ])('refuses %j', (schema, problem) => {
    const result = compiler.compile(schema);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toContain(problem);
  });

  it('refuses schemas nested deeper than the limit, cheaply, however deep they are', () => {
    let deep: Record<string, unknown> = { type: 'object' };
    for (let i = 0; i < 10_000; i++) deep = { properties: { a: deep } };
    const result = compiler.compile(deep);
    expect(result).toEqual({ ok: false, problem: `is nested deeper than ${MAX_SCHEMA_DEPTH} levels` });
  });
});
