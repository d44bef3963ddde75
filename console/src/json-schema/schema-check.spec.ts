import { schemaProblems } from './schema-check';

describe('schemaProblems (the console\'s check before sending a json_schema)', () => {
  it('passes a valid object schema, in either draft', () => {
    expect(schemaProblems('{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}')).toEqual([]);
    expect(schemaProblems('{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"a":{"type":"string"}}}')).toEqual([]);
    expect(schemaProblems('{"type":"object","$defs":{"unit":{"enum":["c","f"]}},"properties":{"u":{"$ref":"#/$defs/unit"}}}')).toEqual([]);
    expect(schemaProblems('{}')).toEqual([]);
  });

  it('names what the service would refuse', () => {
    expect(schemaProblems('{"type":')[0].message).toMatch(/^not valid JSON: /);
    expect(schemaProblems('[]')).toEqual([{ path: '', keyword: 'type', message: 'must be a JSON object' }]);
    expect(schemaProblems('{"type":"string"}')).toEqual([{ path: '/type', keyword: 'type', message: 'must be "object" (parameters are an object)' }]);
    expect(schemaProblems('{"$schema":"https://example.com/mine"}')).toEqual([
      { path: '/$schema', keyword: '$schema', message: 'unsupported $schema (use draft 2020-12 or draft-07)' },
    ]);
  });

  it('reports meta-schema violations with their place in the schema, nested ones included', () => {
    const problems = schemaProblems('{"type":"object","properties":{"city":{"type":"text"},"n":{"minimum":"x"}},"required":"city"}');
    expect(problems).toEqual([
      { path: '/properties/city/type', keyword: 'enum', message: 'must be one of "array", "boolean", "integer", "null", "number", "object", "string"' },
      { path: '/properties/n/minimum', keyword: 'type', message: 'must be number' },
      { path: '/required', keyword: 'type', message: 'must be array' },
    ]);
  });

  it('checks a draft-07 schema against the draft-07 meta-schema', () => {
    expect(schemaProblems('{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","required":"x"}')).toEqual([
      { path: '/required', keyword: 'type', message: 'must be array' },
    ]);
  });
});
