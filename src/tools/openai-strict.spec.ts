import { toOpenAiStrict } from './openai-strict';
import { toProviderSchema } from './provider-schema';
import { JsonObject, ValidatorKeywords } from './schema-keywords';

const keywords = new ValidatorKeywords();
const strictOf = (schema: JsonObject) => {
  const provider = toProviderSchema(schema, keywords);
  if (!provider.ok) throw new Error(provider.reason);
  return toOpenAiStrict(provider.schema);
};

describe('toOpenAiStrict', () => {
  it('closes objects and requires every property', () => {
    expect(
      strictOf({
        type: 'object',
        properties: { city: { type: 'string', description: 'City' }, at: { type: ['string', 'null'], format: 'date-time' } },
        required: ['city'],
      }),
    ).toEqual({
      ok: true,
      schema: {
        type: 'object',
        properties: { city: { type: 'string', description: 'City' }, at: { type: ['string', 'null'], format: 'date-time' } },
        required: ['city', 'at'],
        additionalProperties: false,
      },
    });
  });

  it('keeps $defs and $ref, moves draft-07 definitions to $defs and drops annotations strict mode does not take', () => {
    expect(
      strictOf({
        $schema: 'http://json-schema.org/draft-07/schema#',
        definitions: { id: { type: 'string', format: 'uuid', examples: ['x'] } },
        properties: { id: { $ref: '#/definitions/id', description: 'The id', default: 'a' } },
        required: ['id'],
      }),
    ).toEqual({
      ok: true,
      schema: {
        type: 'object',
        properties: { id: { $ref: '#/$defs/id' } },
        required: ['id'],
        additionalProperties: false,
        $defs: { id: { type: 'string', format: 'uuid' } },
      },
    });
  });

  it('spells out the type of enums and consts, and turns OpenAPI nullable into a null type', () => {
    const result = strictOf({ properties: { mode: { enum: ['a', 'b'] }, size: { const: 3 }, note: { type: 'string', nullable: true } }, required: ['mode', 'size'] });
    expect(result).toEqual({
      ok: true,
      schema: {
        type: 'object',
        properties: { mode: { enum: ['a', 'b'], type: 'string' }, size: { const: 3, type: 'integer' }, note: { type: ['string', 'null'] } },
        required: ['mode', 'size', 'note'],
        additionalProperties: false,
      },
    });
  });

  it('holds enum and const values to a type beside them, and an optional property to every keyword that excludes null', () => {
    // `null` in an enum of type string can never pass: left out, the property is optional and cannot be left out.
    expect(strictOf({ properties: { level: { type: 'string', enum: ['low', null] } } })).toEqual({
      ok: false,
      reasons: ['optional property `level` that does not accept null (at /) is not supported in strict mode'],
    });
    expect(strictOf({ properties: { level: { type: 'string', enum: ['low', null] } }, required: ['level'] })).toEqual({
      ok: true,
      schema: { type: 'object', properties: { level: { type: 'string', enum: ['low'] } }, required: ['level'], additionalProperties: false },
    });
    expect(strictOf({ properties: { n: { type: 'number', enum: [1, 2.5, '3'] } }, required: ['n'] })).toMatchObject({ ok: true, schema: { properties: { n: { type: 'number', enum: [1, 2.5] } } } });
    expect(strictOf({ properties: { n: { type: 'integer', const: null } }, required: ['n'] })).toEqual({
      ok: false,
      reasons: ['a `const` that its `type` excludes (at /properties/n) is not supported in strict mode'],
    });
    expect(strictOf({ properties: { n: { type: 'integer', enum: ['1', '2'] } }, required: ['n'] })).toEqual({
      ok: false,
      reasons: ['an `enum` whose values its `type` all excludes (at /properties/n) is not supported in strict mode'],
    });
    // A type that admits null beside an enum that does not: null is refused, so the property cannot be optional.
    expect(strictOf({ properties: { level: { type: ['string', 'null'], enum: ['low'] } } })).toMatchObject({ ok: false });
    expect(strictOf({ properties: { level: { type: ['string', 'null'], enum: ['low', null] } } })).toMatchObject({ ok: true });
  });

  it('closes a root without properties (an action without parameters), not a nested free-form object', () => {
    expect(strictOf({})).toEqual({ ok: true, schema: { type: 'object', properties: {}, required: [], additionalProperties: false } });
    expect(strictOf({ properties: { data: { type: 'object' } }, required: ['data'] })).toEqual({
      ok: false,
      reasons: ['an object without declared properties (at /properties/data) is not supported in strict mode'],
    });
  });

  it.each([
    ['an optional property that does not accept null', { properties: { a: { type: 'string' } } }, 'optional property `a` that does not accept null (at /)'],
    ['an open object', { properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: true }, 'an object that accepts undeclared properties (at /)'],
    ['minLength', { properties: { a: { type: 'string', minLength: 2 } }, required: ['a'] }, '`minLength` (at /properties/a)'],
    ['oneOf', { properties: { a: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }, required: ['a'] }, '`oneOf` (at /properties/a)'],
    ['an unsupported format', { properties: { a: { type: 'string', format: 'uri' } }, required: ['a'] }, 'format `uri` (at /properties/a)'],
    ['a lookahead', { properties: { a: { type: 'string', pattern: '^(?=x)' } }, required: ['a'] }, 'a pattern with lookaround or backreferences (at /properties/a)'],
    ['a value of any type', { properties: { a: {} }, required: ['a'] }, 'a value of any type (no `type`) (at /properties/a)'],
    ['an array without items', { properties: { a: { type: 'array' } }, required: ['a'] }, 'an array without `items` (at /properties/a)'],
    ['a keyword beside $ref', { $defs: { s: { type: 'string' } }, properties: { a: { $ref: '#/$defs/s', maxLength: 3 } }, required: ['a'] }, '`maxLength` beside `$ref` (at /properties/a)'],
    ['a reference into a definition', { $defs: { s: { properties: { b: { type: 'string' } } } }, properties: { a: { $ref: '#/$defs/s/properties/b' } }, required: ['a'] }, 'a reference other than to `#` or `#/$defs/...` (at /properties/a)'],
    ['a fractional multipleOf', { properties: { a: { type: 'number', multipleOf: 0.01 } }, required: ['a'] }, 'a fractional `multipleOf` (at /properties/a)'],
    ['a tuple', { properties: { a: { type: 'array', prefixItems: [{ type: 'string' }] } }, required: ['a'] }, '`prefixItems` (at /properties/a)'],
  ])('keeps %s out of strict mode, saying where', (_, schema, reason) => {
    const result = strictOf(schema);
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.reasons).toContain(`${reason} is not supported in strict mode`);
  });

  it('checks the documented size limits', () => {
    const deep = (levels: number): JsonObject =>
      levels === 0 ? { type: 'string' } : { type: 'object', properties: { next: deep(levels - 1) }, required: ['next'] };
    expect(strictOf(deep(10)).ok).toBe(true);
    expect(strictOf(deep(11))).toEqual({ ok: false, reasons: ['objects nested 11 levels deep (strict mode allows 10) is not supported in strict mode'] });
    const values = (count: number) => ({ properties: { a: { enum: Array.from({ length: count }, (_, index) => `v${index}`) } }, required: ['a'] });
    expect(strictOf(values(1_000)).ok).toBe(true);
    expect(strictOf(values(1_001))).toEqual({ ok: false, reasons: ['1001 enum values (strict mode allows 1000) is not supported in strict mode'] });
    const long = { properties: { a: { enum: Array.from({ length: 251 }, (_, index) => `${index}`.padEnd(60, 'x')) } }, required: ['a'] };
    expect(strictOf(long)).toEqual({ ok: false, reasons: ['an enum of 251 values whose text exceeds 15000 characters is not supported in strict mode'] });
  });

  it('lists at most five reasons', () => {
    const properties = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`p${index}`, { type: 'string' }]));
    const result = strictOf({ properties });
    expect(result.ok === false && result.reasons).toHaveLength(6);
    expect(result.ok === false && result.reasons[5]).toBe('and 3 more');
  });
});
