import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { closest, DIALECT_KEYWORDS, mistakesText, SchemaDialect, schemaMistakes } from './schema-mistakes';

const mistakes = (schema: Record<string, unknown>, dialect: SchemaDialect = '2020-12') => schemaMistakes(schema, dialect);

describe('schemaMistakes (what JSON Schema lets pass but the author cannot have meant)', () => {
  it.each([
    ['2020-12', new Ajv2020({ strict: false })],
    ['draft-07', new Ajv({ strict: false })],
  ] as const)('knows exactly the keywords Ajv runs in %s ($anchor aside, which Ajv resolves without listing it)', (dialect, ajv) => {
    addFormats(ajv, { keywords: true });
    const ajvKeywords = Object.keys(ajv.RULES.keywords);
    expect([...DIALECT_KEYWORDS[dialect]].filter((keyword) => keyword !== '$anchor').sort()).toEqual(ajvKeywords.sort());
  });

  it('finds nothing in valid schemas, x- keywords and OpenAPI nullable included', () => {
    // test/tools.e2e-spec registers every schema of test/support/schema-corpus.ts, which has more.
    expect(mistakes({ properties: { flag: { type: 'boolean', 'x-ui': 'checkbox' }, comment: { type: 'string', nullable: true }, anything: true }, required: ['flag'], 'x-owner': 'a' })).toEqual([]);
    expect(mistakes({ type: 'object', title: 'T', $comment: 'c', $defs: { u: { enum: ['c', 'f'], default: 'c', examples: ['c'], deprecated: false } }, properties: { u: { $ref: '#/$defs/u' } } })).toEqual([]);
    expect(mistakes({ properties: { a: {} }, anyOf: [{ required: ['a'] }, { required: ['b'] }] })).toEqual([]);
    expect(mistakes({ allOf: [{ properties: { a: {} } }], properties: { b: {} }, required: ['a', 'b'] })).toEqual([]);
    expect(mistakes({ properties: { a: {} }, then: { required: ['a'], properties: { c: {} } } })).toEqual([]);
    expect(mistakes({ properties: { a: {} }, patternProperties: { '^b': {} }, required: ['bee'] })).toEqual([]);
    expect(mistakes({ required: ['anything'] })).toEqual([]);
    expect(mistakes({ $schema: 'http://json-schema.org/draft-07/schema#', items: [{ type: 'string' }], additionalItems: false }, 'draft-07')).toEqual([]);
  });

  it('names unknown keywords with the keyword meant, wherever they are', () => {
    expect(mistakes({ type: 'object', properties: { city: { type: 'string' } }, require: ['city'] })).toEqual([
      { path: '', message: 'unknown keyword "require" (did you mean "required"?)' },
    ]);
    expect(mistakes({ type: 'object', propertis: { city: { type: 'string' } } })).toEqual([
      { path: '', message: 'unknown keyword "propertis" (did you mean "properties"?)' },
    ]);
    expect(mistakes({ properties: { 'a/b': { type: 'string', maxlength: 3 } }, $defs: { x: { minimun: 1 } } })).toEqual([
      { path: '/properties/a~1b', message: 'unknown keyword "maxlength" (did you mean "maxLength"?)' },
      { path: '/$defs/x', message: 'unknown keyword "minimun" (did you mean "minimum"?)' },
    ]);
    expect(mistakes({ type: 'object', city: { type: 'string' } })).toEqual([
      { path: '', message: 'unknown keyword "city" (to define a property "city", put it inside "properties")' },
    ]);
    expect(mistakes({ widget: 'slider' })).toEqual([{ path: '', message: 'unknown keyword "widget" (a keyword of your own must start with "x-")' }]);
    expect(mistakes({ prefixItems: [] }, 'draft-07')).toEqual([{ path: '', message: 'unknown keyword "prefixItems" in a draft-07 schema (it is draft 2020-12\'s)' }]);
    expect(mistakes({ additionalItems: false })).toEqual([{ path: '', message: 'unknown keyword "additionalItems" in a draft 2020-12 schema (it is draft-07\'s)' }]);
  });

  it('names required properties that properties does not define', () => {
    expect(mistakes({ type: 'object', properties: { city: { type: 'string' } }, required: ['citty', 'zip'] })).toEqual([
      { path: '/required', message: '"citty" is required but not among the properties (did you mean "city"?)' },
      { path: '/required', message: '"zip" is required but not among the properties (add "zip": {} to properties to allow any value)' },
    ]);
  });

  it('names types JSON Schema does not have, and values of the wrong kind', () => {
    expect(mistakes({ properties: { city: { type: 'strng' }, n: { type: 'int' }, d: { type: 'date' }, f: { type: ['float', 'null'] }, x: { type: 'thing' } } })).toEqual([
      { path: '/properties/city/type', message: '"strng" is not a JSON Schema type (did you mean "string"?)' },
      { path: '/properties/n/type', message: '"int" is not a JSON Schema type (did you mean "integer"?)' },
      { path: '/properties/d/type', message: '"date" is not a JSON Schema type (did you mean "type": "string", "format": "date"?)' },
      { path: '/properties/f/type', message: '"float" is not a JSON Schema type (did you mean "number"?)' },
      { path: '/properties/x/type', message: '"thing" is not a JSON Schema type (use one of string, number, integer, boolean, object, array, null)' },
    ]);
    expect(mistakes({ properties: { city: 'string', n: { minimum: '5', maxLength: -1 } }, required: 'city', additionalProperties: 'false' })).toEqual([
      { path: '/properties/city', message: 'must be a schema: write {"type": "string"}, not "string"' },
      { path: '/properties/n/minimum', message: 'must be a number, not "5"' },
      { path: '/properties/n/maxLength', message: 'must be a whole number, 0 or more, not -1' },
      { path: '/required', message: 'must be an array of property names, e.g. ["city"], not "city"' },
      { path: '/additionalProperties', message: 'must be a schema (an object, or true or false), not "false"' },
    ]);
    expect(mistakes({ items: [{ type: 'string' }] })).toEqual([{ path: '/items', message: 'must be a schema in draft 2020-12 (an array of schemas is "prefixItems")' }]);
  });

  it('reports at most ten, and says there are more, in the API\'s words', () => {
    const schema = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`unknown${index}`, 1]));
    const found = mistakes(schema);
    expect(found).toHaveLength(11);
    const text = mistakesText(found);
    expect(text.split('; ')).toHaveLength(11);
    expect(text.startsWith('json_schema: unknown keyword "unknown0"')).toBe(true);
    expect(text.endsWith('; and more')).toBe(true);
    expect(mistakesText([{ path: '/properties/city/type', message: 'x' }])).toBe('json_schema.properties.city.type: x');
  });

  it('stops after its budget of values, whatever the schema\'s size', () => {
    const wide = { properties: Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`p${index}`, { typo: 1 }])) };
    expect(schemaMistakes(wide, '2020-12', 100).length).toBeLessThan(100);
  });

  it.each([
    ['require', 'required'],
    ['requried', 'required'],
    ['additionalProperty', 'additionalProperties'],
    ['ENUM', 'enum'],
    ['foo', undefined],
    ['x', undefined],
  ])('suggests for %s: %s', (word, expected) => {
    expect(closest(word, DIALECT_KEYWORDS['2020-12'])).toBe(expected);
  });
});
