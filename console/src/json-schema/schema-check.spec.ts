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

  it('names the mistakes JSON Schema lets pass, in the service\'s words, with their place in the schema', () => {
    const problems = schemaProblems('{"type":"object","properties":{"city":{"type":"text"},"n":{"minimum":"x"}},"required":"city","propertis":{}}');
    expect(problems).toEqual([
      { path: '/properties/city/type', keyword: 'mistake', message: '"text" is not a JSON Schema type (did you mean "string"?)' },
      { path: '/properties/n/minimum', keyword: 'mistake', message: 'must be a number, not "x"' },
      { path: '/required', keyword: 'mistake', message: 'must be an array of property names, e.g. ["city"], not "city"' },
      { path: '', keyword: 'mistake', message: 'unknown keyword "propertis" (did you mean "properties"?)' },
    ]);
    expect(schemaProblems('{"type":"object","properties":{"city":{"type":"string"}},"require":["city"]}')).toEqual([
      { path: '', keyword: 'mistake', message: 'unknown keyword "require" (did you mean "required"?)' },
    ]);
    expect(schemaProblems('{"properties":{"city":{}},"required":["citty"]}')).toEqual([
      { path: '/required', keyword: 'mistake', message: '"citty" is required but not among the properties (did you mean "city"?)' },
    ]);
    const many = schemaProblems(JSON.stringify(Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`k${index}`, 1]))));
    expect(many).toHaveLength(11);
    expect(many[10]).toEqual({ path: '', keyword: 'mistake', message: 'and more' });
  });

  it('checks a draft-07 schema with draft-07\'s keywords, and the rest against its meta-schema', () => {
    expect(schemaProblems('{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","prefixItems":[]}')).toEqual([
      { path: '', keyword: 'mistake', message: 'unknown keyword "prefixItems" in a draft-07 schema (it is draft 2020-12\'s)' },
    ]);
    expect(schemaProblems('{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","required":["x","x"],"properties":{"x":{}}}')).toEqual([
      { path: '/required', keyword: 'mistake', message: 'lists "x" twice' },
    ]);
    expect(schemaProblems('{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"a":{"enum":"x"}},"dependencies":{"a":7}}')).toEqual([
      { path: '/definitions/a/enum', keyword: 'mistake', message: 'must be an array, not "x"' },
      { path: '/dependencies/a', keyword: 'mistake', message: 'must be a schema, or an array of property names, not 7' },
    ]);
    // What the mistakes check does not cover is the meta-schema's to say.
    expect(schemaProblems('{"properties":{"a":{"type":["string","string"]}},"dependentRequired":{"a":"b"}}')).toEqual([
      { path: '/properties/a/type', keyword: 'mistake', message: 'lists "string" twice' },
    ]);
    expect(schemaProblems('{"properties":{"a":{}},"dependentRequired":{"a":"b"}}')).toEqual([
      { path: '/dependentRequired/a', keyword: 'type', message: 'must be array' },
    ]);
  });
});
