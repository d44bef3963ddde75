import { providerToolName, ToolDefinitions } from './tool-definitions';

const weather = { name: 'get_weather', description: 'Current weather', json_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
/** What every definition list says of idempotency keys beside the definitions, and every MCP tool in its `_meta`. */
const KEY_USE = { header: 'Idempotency-Key', mcp_meta_key: 'io.modelcontextprotocol/idempotency-key', retention_hours: 24 };
const KEY_META = { _meta: { 'action-gateway/idempotency-key': KEY_USE } };
const strictParameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };

describe('ToolDefinitions', () => {
  const definitions = new ToolDefinitions();

  it('gives each format its own shape, with the same action behind each tool', () => {
    expect(definitions.build('openai', [weather]).tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters: strictParameters, strict: true } },
    ]);
    expect(definitions.build('openai-responses', [weather]).tools).toEqual([
      { type: 'function', name: 'get_weather', description: 'Current weather', parameters: strictParameters, strict: true },
    ]);
    expect(definitions.build('anthropic', [weather]).tools).toEqual([{ name: 'get_weather', description: 'Current weather', input_schema: weather.json_schema }]);
    expect(definitions.build('mcp', [weather])).toEqual({
      format: 'mcp',
      tools: [{ name: 'get_weather', description: 'Current weather', inputSchema: weather.json_schema, execution: { taskSupport: 'optional' }, ...KEY_META }],
      actions: [{ tool_name: 'get_weather', action_name: 'get_weather', strict: null, notes: [] }],
      omitted: [],
      idempotency_key: KEY_USE,
    });
  });

  it('says beside every format\'s definitions, and in no provider\'s definition, that a call may carry an idempotency key', () => {
    for (const format of ['openai', 'openai-responses', 'anthropic'] as const) {
      const built = definitions.build(format, [weather]);
      expect(built.idempotency_key).toEqual(KEY_USE);
      expect(JSON.stringify(built.tools)).not.toContain('idempotency');
    }
    expect(definitions.build('mcp', []).idempotency_key).toEqual(KEY_USE);
  });

  it('sends a schema strict mode cannot take as it is, strict: false, saying why beside it', () => {
    const optional = { ...weather, json_schema: { type: 'object', properties: { city: { type: 'string' }, tags: { type: 'array' } } } };
    const result = definitions.build('openai', [optional]);
    expect(result.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather',
          parameters: { type: 'object', properties: { city: { type: 'string' }, tags: { type: 'array', items: {} } } },
          strict: false,
        },
      },
    ]);
    expect(result.actions[0].strict).toBe(false);
    expect(result.actions[0].notes).toEqual([
      'not strict: optional property `city` that does not accept null (at /) is not supported in strict mode; ' +
        'an array without `items` (at /properties/tags) is not supported in strict mode; ' +
        'optional property `tags` that does not accept null (at /) is not supported in strict mode',
    ]);
  });

  it('leaves out of openai and anthropic an action whose root is a combinator, keeping it for MCP', () => {
    const either = { name: 'either', description: 'd', json_schema: { properties: { a: { type: 'string' }, b: { type: 'string' } }, anyOf: [{ required: ['a'] }, { required: ['b'] }] } };
    for (const format of ['openai', 'openai-responses', 'anthropic'] as const) {
      expect(definitions.build(format, [either, weather])).toMatchObject({
        tools: [expect.anything()],
        actions: [{ action_name: 'get_weather' }],
        omitted: [{ action_name: 'either', reason: "the schema's root uses `anyOf`, which tool parameters cannot have at the top level" }],
      });
    }
    expect(definitions.build('mcp', [either]).tools).toEqual([
      { name: 'either', description: 'd', inputSchema: { type: 'object', ...either.json_schema }, execution: { taskSupport: 'optional' }, ...KEY_META },
    ]);
  });

  it('gives MCP boolean property schemas as objects, and keeps the stored key order otherwise', () => {
    const schema = { required: ['a'], properties: { a: true, b: false, c: { type: 'string' } }, type: 'object' };
    const [tool] = definitions.build('mcp', [{ name: 'x', description: 'd', json_schema: schema }]).tools as { inputSchema: object }[];
    expect(tool.inputSchema).toEqual({ required: ['a'], properties: { a: {}, b: { not: {} }, c: { type: 'string' } }, type: 'object' });
    expect(Object.keys(tool.inputSchema)).toEqual(['required', 'properties', 'type']);
  });

  it('shortens names over 64 characters for openai and anthropic, and says which action the tool runs', () => {
    const long = { ...weather, name: `${'a'.repeat(60)}_${'b'.repeat(39)}` };
    const result = definitions.build('anthropic', [long]);
    const alias = providerToolName(long.name);
    expect(alias).toMatch(/^a{53}-[0-9a-f]{10}$/);
    expect(result.tools).toEqual([{ name: alias, description: 'Current weather', input_schema: weather.json_schema }]);
    expect(result.actions).toEqual([{ tool_name: alias, action_name: long.name, strict: null, notes: ['name shortened to 64 characters'] }]);
    expect(definitions.build('mcp', [long]).actions[0].tool_name).toBe(long.name);
  });
});

describe('providerToolName', () => {
  it('keeps names up to 64 characters and shortens longer ones deterministically, never to another action\'s name', () => {
    expect(providerToolName('a'.repeat(64))).toBe('a'.repeat(64));
    const long = 'x'.repeat(65);
    expect(providerToolName(long)).toBe(providerToolName(long));
    expect(providerToolName(long)).toHaveLength(64);
    expect(providerToolName(long)).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(providerToolName(long)).not.toMatch(/^[a-z0-9_]+$/);
    expect(providerToolName(`${long}y`)).not.toBe(providerToolName(long));
  });
});
