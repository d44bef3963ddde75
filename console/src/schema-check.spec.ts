import { schemaProblems } from './schema-check';

describe('schemaProblems (the console\'s check before sending a json_schema)', () => {
  it('passes a valid object schema, in either draft', () => {
    expect(schemaProblems('{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}')).toEqual([]);
    expect(schemaProblems('{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}')).toEqual([]);
    expect(schemaProblems('{}')).toEqual([]);
  });

  it('names what the service would refuse', () => {
    expect(schemaProblems('{"type":')[0].message).toMatch(/^not valid JSON: /);
    expect(schemaProblems('[]')).toEqual([{ path: '', message: 'must be a JSON object' }]);
    expect(schemaProblems('{"type":"string"}')).toEqual([{ path: '/type', message: 'must be "object" (parameters are an object)' }]);
    expect(schemaProblems('{"$schema":"https://example.com/mine"}')).toEqual([{ path: '/$schema', message: 'unsupported $schema (use draft 2020-12 or draft-07)' }]);
  });

  it('reports meta-schema violations with their place in the schema', () => {
    const problems = schemaProblems('{"type":"object","properties":{"city":{"type":"text"}},"required":"city"}');
    expect(problems).toContainEqual({ path: '/required', message: 'must be array' });
    expect(problems.map((problem) => problem.path)).toContain('/properties/city/type');
  });

  it('reports a $ref that cannot be resolved', () => {
    expect(schemaProblems('{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}')[0].message).toMatch(/can't resolve reference/);
  });
});
