import Ajv2020 from 'ajv/dist/2020';
import { JsonSchemaCompiler, MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, PreparedSchema } from './json-schema-compiler';
import { keepWrittenText } from '../common/json-text';
import { MAX_EXPANDED_NODES, MAX_SCHEMA_BYTES } from './schema/schema-analysis';
import { compileSchema, runCheck } from './schema/schema-compilation';
import { SchemaSandbox } from './schema/schema-sandbox';

const inline = (prepared: PreparedSchema) => {
  if (prepared.kind !== 'inline') throw new Error(`expected an inline schema, got ${JSON.stringify(prepared)}`);
  return prepared.validate;
};

describe('JsonSchemaCompiler', () => {
  const sandbox = new SchemaSandbox();
  const compiler = new JsonSchemaCompiler(sandbox);
  afterAll(() => sandbox.onApplicationShutdown());

  it('compiles draft 2020-12 by default and validates parameters with it', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city'], $defs: { unused: { type: 'integer' } } };
    expect(await compiler.problemWith('t', schema)).toBeUndefined();
    const validate = inline(compiler.prepare(schema));
    expect(validate({ city: 'Oslo', days: 2 })).toBe(true);
    expect(validate({ days: 0 })).toBe(false);
  });

  it('compiles draft-07 when $schema says so, with formats', () => {
    const validate = inline(compiler.prepare({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { at: { type: 'string', format: 'date-time' } } }));
    expect(validate({ at: 'not a date' })).toBe(false);
    expect(validate({ at: '2026-11-23T10:00:00Z' })).toBe(true);
  });

  it('lets two schemas use the same $id', async () => {
    expect(await compiler.problemWith('t', { $id: 'https://example.com/p', type: 'object' })).toBeUndefined();
    expect(await compiler.problemWith('t', { $id: 'https://example.com/p', type: 'object' })).toBeUndefined();
  });

  it.each([
    ['https://json-schema.org/draft/2020-12/schema', {}],
    ['http://json-schema.org/draft-07/schema#', { $schema: 'http://json-schema.org/draft-07/schema#' }],
  ])('keeps the meta-schemas whatever a schema declares as its $id (%s)', async (id, dialect) => {
    await compiler.problemWith('t', { $id: id });
    await compiler.problemWith('t', { ...dialect, $id: id, properties: { a: { $ref: id } } });
    expect(await compiler.problemWith('t', { ...dialect, type: 'object', properties: { a: { type: 'string' } } })).toBeUndefined();
    expect(await compiler.problemWith('t', { ...dialect, properties: { a: { minimum: 'one' } } })).toContain('is not a valid JSON Schema: schema is invalid: data/properties/a/minimum must be number');
  });

  it('counts only own properties: `required: ["toString"]` is not met by {}', () => {
    const validate = inline(compiler.prepare({ type: 'object', required: ['toString'], properties: { constructor: { type: 'string' } } }));
    expect(validate({})).toBe(false);
    expect(validate({ toString: 'x' })).toBe(true);
  });

  it('refuses a schema with more values than the limit before compiling it', async () => {
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    expect(await compiler.problemWith('t', wide)).toBe(`has more than ${MAX_SCHEMA_NODES} values`);
    const hugeEnum = { type: 'object', properties: { a: { enum: new Array(200_000).fill(0) } } };
    expect(await compiler.problemWith('t', hugeEnum)).toBe(`has more than ${MAX_SCHEMA_NODES} values`);
  });

  it('refuses to save a schema larger than the limit as written, escapes included, but runs one stored before the limit', async () => {
    const problem = `is larger than ${MAX_SCHEMA_BYTES} bytes as written`;
    // 30,000 characters read, 180,000 bytes written (each one \u0001, or \u0041 as the caller wrote it).
    const escaped = { type: 'object', description: '\u0001'.repeat(30_000) };
    expect(await compiler.problemWith('t', escaped)).toBe(problem);
    const written = `{"type":"object","description":"${'\\u0041'.repeat(30_000)}"}`;
    expect(await compiler.problemWith('t', keepWrittenText(JSON.parse(written), written))).toBe(problem);
    // Two bytes each in UTF-8, written as they are: 120,000 bytes.
    expect(await compiler.problemWith('t', { type: 'object', description: 'é'.repeat(60_000) })).toBeUndefined();
    // What execute prepares from a stored schema is not measured: saved before the limit, it still runs.
    expect(compiler.prepare(escaped).kind).toBe('isolated');
  });

  it('allows keywords it does not know, as JSON Schema does', async () => {
    expect(await compiler.problemWith('t', { type: 'object', 'x-ui': { widget: 'map' } })).toBeUndefined();
  });

  it.each([
    [{ type: 'string' }, 'type must be "object"'],
    [{ type: ['object', 'null'] }, 'type must be "object"'],
    [{ $schema: 'http://json-schema.org/draft-04/schema#' }, 'unsupported $schema (use draft 2020-12 or draft-07)'],
    [{ $schema: 42 }, 'unsupported $schema (use draft 2020-12 or draft-07)'],
    [{ properties: { a: { minimum: 'one' } } }, 'is not a valid JSON Schema'],
    [{ $ref: 'https://example.com/remote.json' }, 'is not a valid JSON Schema'],
    [{ $ref: '#/$defs/missing' }, 'is not a valid JSON Schema'],
    [{ properties: { a: { pattern: '(' } } }, 'is not a valid JSON Schema'],
  ])('refuses %j', async (schema, problem) => {
    expect(await compiler.problemWith('t', schema)).toContain(problem);
  });

  it('refuses schemas nested deeper than the limit, cheaply, however deep they are', async () => {
    let deep: Record<string, unknown> = { type: 'object' };
    for (let i = 0; i < 10_000; i++) deep = { properties: { a: deep } };
    expect(await compiler.problemWith('t', deep)).toBe(`is nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
  });

  it('compiles $refs as calls: 600 references to a 150-property definition make code of linear size', async () => {
    const definition = { type: 'object', properties: Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`q${i}`, { type: 'string' }])) };
    const schema = { type: 'object', $defs: { d: definition }, properties: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`p${i}`, { $ref: '#/$defs/d' }])) };
    expect(compiler.prepare(schema)).toMatchObject({ kind: 'isolated' });
    const compiled = compileSchema(schema, new Map(), true);
    if (!compiled.ok) throw new Error(compiled.problem);
    // Inlined, the definition's 150 checks would be written out 600 times: tens of megabytes of code.
    expect(compiled.validate.toString().length).toBeLessThan(500_000);
    expect(runCheck(compiled.validate, { p1: { q1: 7 } })).toEqual({ valid: false, errors: [{ instancePath: '/p1/q1', message: 'must be string' }] });
  });

  it('refuses $refs that expand exponentially, before compiling', async () => {
    const $defs: Record<string, unknown> = { d40: { type: 'string' } };
    for (let i = 0; i < 40; i++) $defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    expect(await compiler.problemWith('t', { type: 'object', $defs, properties: { a: { $ref: '#/$defs/d0' } } })).toBe(`expands to more than ${MAX_EXPANDED_NODES} values through its $refs`);
  });

  it('checks recursive schemas in the worker', async () => {
    const tree = { type: 'object', $defs: { node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } } } }, properties: { root: { $ref: '#/$defs/node' } } };
    expect(compiler.prepare(tree)).toMatchObject({ kind: 'isolated' });
    expect(await compiler.checkIsolated('t', 'tree@1', tree, { root: { children: [{ children: [] }] } })).toEqual({ valid: true });
    expect(await compiler.checkIsolated('t', 'tree@1', tree, { root: { children: [{ children: 3 }] } })).toEqual({ valid: false, errors: [{ instancePath: '/root/children/0/children', message: 'must be array' }] });
  });

  it('runs patterns on RE2, and those it cannot run with ECMAScript in the worker', async () => {
    const validate = inline(compiler.prepare({ type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } }));
    const started = performance.now();
    expect(validate({ a: `${'a'.repeat(50_000)}!` })).toBe(false);
    // Backtracking would not finish in a lifetime; RE2 takes milliseconds. A bound far from both, for a busy host.
    expect(performance.now() - started).toBeLessThan(10_000);
    const lookahead = { type: 'object', properties: { a: { type: 'string', pattern: '^(?=x)(a|x)+$' } } };
    expect(compiler.prepare(lookahead)).toMatchObject({ kind: 'isolated' });
    expect(await compiler.checkIsolated('t', 'look@1', lookahead, { a: 'xa' })).toEqual({ valid: true });
    expect(await compiler.checkIsolated('t', 'look@2', { ...lookahead, properties: { a: { pattern: '^(?=a)(a+)+$' } } }, { a: `${'a'.repeat(40)}!` })).toEqual({
      valid: false,
      problem: 'could not be checked against the json_schema within 1500 ms',
    });
  });

  it('checks uniqueItems in linear time, with the errors Ajv gives', () => {
    const ajv = new Ajv2020({ strict: false });
    for (const schema of [{ type: 'array', uniqueItems: true }, { type: 'array', uniqueItems: true, items: { type: ['string', 'number'] } }, { type: 'array', uniqueItems: true, items: { type: 'integer' } }]) {
      const reference = ajv.compile(schema);
      const ours = inline(compiler.prepare({ type: 'object', properties: { list: schema } }));
      for (const list of [[1, 2, 1, 2], ['1', 1, 'x', 1, '1'], [{ a: 1, b: [2] }, 3, { b: [2], a: 1 }], [[1], [2], [1]], [1, 1.0], [0, -0], [true, 'true', null, 'null'], [1, 2, 3]]) {
        reference(list);
        const expected = (reference.errors ?? []).map(({ message, params }) => ({ message, params }));
        ours({ list });
        expect([list, (ours.errors ?? []).map(({ message, params }) => ({ message, params }))]).toEqual([list, expected]);
      }
    }
    const validate = inline(compiler.prepare({ type: 'object', properties: { list: { type: 'array', uniqueItems: true } } }));
    const list = Array.from({ length: 40_000 }, (_, i) => [i % 7, i]);
    const started = performance.now();
    expect(validate({ list })).toBe(true);
    // The quadratic check took 11 s here (issue 11); the linear one, milliseconds. A bound far from both.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('keeps small checks of small parameters on the event loop', () => {
    const prepared = compiler.prepare({ type: 'object', properties: { city: { type: 'string', pattern: '^[A-Z]' } } });
    expect(runCheck(inline(prepared), { city: 'oslo' })).toEqual({ valid: false, errors: [{ instancePath: '/city', message: 'must match pattern "^[A-Z]"' }] });
  });
});
