import { toProviderSchema } from './provider-schema';
import { ValidatorKeywords } from './schema-keywords';

const keywords = new ValidatorKeywords();

describe('toProviderSchema', () => {
  it('adds the root type, drops $schema and keywords the validator ignores, keeps annotations', () => {
    expect(
      toProviderSchema(
        {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          properties: { city: { type: 'string', description: 'City', default: 'Oslo', 'x-ui': 'text' } },
          'x-owner': 'team',
          discriminator: { propertyName: 'kind' },
        },
        keywords,
      ),
    ).toEqual({ ok: true, schema: { type: 'object', properties: { city: { type: 'string', description: 'City', default: 'Oslo' } } } });
  });

  it('rewrites draft-07 tuples and dependencies into 2020-12, and drops what draft-07 does not know', () => {
    expect(
      toProviderSchema(
        {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          properties: {
            point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }], additionalItems: false },
            list: { type: 'array', items: { type: 'string' }, additionalItems: false },
          },
          dependencies: { card: ['cvc'], vat: { required: ['country'] } },
          dependentRequired: { ignored: ['by', 'draft-07'] },
        },
        keywords,
      ),
    ).toEqual({
      ok: true,
      schema: {
        type: 'object',
        properties: {
          point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: { not: {} } },
          list: { type: 'array', items: { type: 'string' } },
        },
        dependentRequired: { card: ['cvc'] },
        dependentSchemas: { vat: { required: ['country'] } },
      },
    });
  });

  it('merges draft-07 dependencies with the 2020-12 keywords they meet', () => {
    const result = toProviderSchema({ dependencies: { a: ['b'], c: { required: ['d'] } }, dependentRequired: { a: ['e'] }, dependentSchemas: { c: { minProperties: 3 } } }, keywords);
    expect(result).toEqual({
      ok: true,
      schema: { type: 'object', dependentRequired: { a: ['b', 'e'] }, dependentSchemas: { c: { allOf: [{ required: ['d'] }, { minProperties: 3 }] } } },
    });
  });

  it('turns boolean subschemas into objects, except additionalProperties: false', () => {
    expect(toProviderSchema({ properties: { any: true, none: false, list: { type: 'array', items: true } }, additionalProperties: false }, keywords)).toEqual({
      ok: true,
      schema: { type: 'object', properties: { any: {}, none: { not: {} }, list: { type: 'array', items: {} } }, additionalProperties: false },
    });
  });

  it.each(['anyOf', 'oneOf', 'allOf', 'not', 'enum'])('refuses %s at the root', (keyword) => {
    const value = keyword === 'not' ? { required: ['a'] } : keyword === 'enum' ? [{}] : [{ required: ['a'] }];
    expect(toProviderSchema({ type: 'object', [keyword]: value }, keywords)).toEqual({
      ok: false,
      reason: `the schema's root uses \`${keyword}\`, which tool parameters cannot have at the top level`,
    });
  });
});
