import { ListToolsResultSchema, ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { compileSchema } from '../src/actions/schema/schema-compilation';
import { toOpenAiStrict } from '../src/tools/openai-strict';
import { toProviderSchema } from '../src/tools/provider-schema';
import { ValidatorKeywords } from '../src/tools/schema-keywords';
import { createTenant, gateway, TestTenant } from './support/factories';
import { Receiver } from './support/receiver';
import { SCHEMA_CORPUS } from './support/schema-corpus';
import { valuesOf } from './support/schema-values';
import { startTestApp, TestApp } from './support/test-app';

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

/** The provider definitions as their documentation describes them (no provider publishes a validator package). */
const NAME = { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' };
const OBJECT_SCHEMA = { type: 'object', required: ['type'], properties: { type: { const: 'object' } } };
const SHAPES = {
  // Chat Completions: ChatCompletionFunctionTool / FunctionDefinition
  openai: ajv.compile({
    type: 'object',
    required: ['type', 'function'],
    additionalProperties: false,
    properties: {
      type: { const: 'function' },
      function: {
        type: 'object',
        required: ['name', 'description', 'parameters', 'strict'],
        additionalProperties: false,
        properties: { name: NAME, description: { type: 'string' }, parameters: OBJECT_SCHEMA, strict: { type: 'boolean' } },
      },
    },
  }),
  // Responses API: FunctionTool (parameters and strict are required there; strict defaults to true if null)
  'openai-responses': ajv.compile({
    type: 'object',
    required: ['type', 'name', 'description', 'parameters', 'strict'],
    additionalProperties: false,
    properties: { type: { const: 'function' }, name: NAME, description: { type: 'string' }, parameters: OBJECT_SCHEMA, strict: { type: 'boolean' } },
  }),
  // Messages API: Tool (custom)
  anthropic: ajv.compile({
    type: 'object',
    required: ['name', 'description', 'input_schema'],
    additionalProperties: false,
    properties: { name: NAME, description: { type: 'string' }, input_schema: OBJECT_SCHEMA },
  }),
};

const STRICT_KEYWORDS = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', '$ref', '$defs', 'description', 'title',
  'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
]);
const STRICT_FORMATS = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'];

/** OpenAI's strict-mode rules, checked independently of the converter: what the API would refuse. */
function strictModeViolations(schema: any, path = ''): string[] {
  const problems: string[] = [];
  for (const keyword of Object.keys(schema)) if (!STRICT_KEYWORDS.has(keyword)) problems.push(`${path}: ${keyword}`);
  if (schema.$ref !== undefined && Object.keys(schema).length > 1) problems.push(`${path}: siblings of $ref`);
  if (schema.format !== undefined && !STRICT_FORMATS.includes(schema.format)) problems.push(`${path}: format ${schema.format}`);
  if (schema.$ref === undefined && schema.anyOf === undefined && schema.type === undefined) problems.push(`${path}: no type`);
  const types = [schema.type].flat();
  if (types.includes('object')) {
    if (schema.additionalProperties !== false) problems.push(`${path}: additionalProperties`);
    if (JSON.stringify(schema.required) !== JSON.stringify(Object.keys(schema.properties ?? {}))) problems.push(`${path}: required`);
  }
  if (types.includes('array') && schema.items === undefined) problems.push(`${path}: items`);
  // Enum and const values that the type beside them excludes: a schema that contradicts itself.
  const fits = (value: unknown) => types.includes(jsonTypeOf(value)) || (Number.isInteger(value) && types.includes('number'));
  if (schema.type !== undefined && Array.isArray(schema.enum) && !schema.enum.every(fits)) problems.push(`${path}: enum values of another type`);
  if (schema.type !== undefined && 'const' in schema && !fits(schema.const)) problems.push(`${path}: const of another type`);
  for (const [name, child] of Object.entries(schema.properties ?? {})) problems.push(...strictModeViolations(child, `${path}/properties/${name}`));
  for (const [name, child] of Object.entries(schema.$defs ?? {})) problems.push(...strictModeViolations(child, `${path}/$defs/${name}`));
  if (schema.items) problems.push(...strictModeViolations(schema.items, `${path}/items`));
  for (const [index, child] of (schema.anyOf ?? []).entries()) problems.push(...strictModeViolations(child, `${path}/anyOf/${index}`));
  return problems;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const ROOT_COMBINATORS = ['anyOf', 'oneOf', 'allOf', 'not', 'enum'];

describe('GET /tools: tool definitions for a corpus of realistic schemas', () => {
  let testApp: TestApp;
  let receiver: Receiver;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await Receiver.start();
    tenant = await createTenant(testApp);
    for (const entry of SCHEMA_CORPUS) {
      const body = { name: entry.name, description: entry.description, webhook_url: receiver.url(), json_schema: entry.json_schema };
      const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body });
      expect([entry.name, created.status]).toEqual([entry.name, 201]);
    }
  });
  afterAll(async () => {
    await receiver.stop();
    await testApp.close();
  });

  const sorted = () => [...SCHEMA_CORPUS].sort((a, b) => (a.name < b.name ? -1 : 1));
  const list = async (format: string) => {
    const response = await gateway(testApp, 'GET', `/tools?format=${format}`, { token: tenant.jwt });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(response.body.tools).toHaveLength(response.body.actions.length);
    return response.body;
  };

  it('mcp: every action, each a Tool the SDK\'s schema accepts, inputSchema the stored json_schema', async () => {
    const body = await list('mcp');
    expect(ListToolsResultSchema.safeParse({ tools: body.tools }).success).toBe(true);
    for (const tool of body.tools) expect([tool.name, ToolSchema.safeParse(tool).success]).toEqual([tool.name, true]);
    expect(body.tools.map((tool: any) => tool.name)).toEqual(sorted().map((entry) => entry.name));
    const ping = body.tools.find((tool: any) => tool.name === 'ping');
    expect(ping.inputSchema).toEqual({ type: 'object' });
    const order = body.tools.find((tool: any) => tool.name === 'create_order');
    expect(order.inputSchema).toEqual(SCHEMA_CORPUS.find((entry) => entry.name === 'create_order')!.json_schema);
    expect(body.omitted).toEqual([]);
  });

  for (const format of ['openai', 'openai-responses', 'anthropic'] as const) {
    it(`${format}: every definition has the documented shape and a valid 2020-12 parameter schema; combinator roots are left out`, async () => {
      const body = await list(format);
      const expectedOmitted = sorted().filter((entry) => entry.strict === 'omitted');
      expect(body.omitted).toEqual(expectedOmitted.map((entry) => ({ action_name: entry.name, reason: expect.stringContaining('`anyOf`') })));
      expect(body.actions.map((action: any) => action.action_name)).toEqual(sorted().filter((entry) => entry.strict !== 'omitted').map((entry) => entry.name));
      for (const [index, tool] of body.tools.entries()) {
        const valid = SHAPES[format](tool);
        expect([tool, valid ? null : SHAPES[format].errors]).toEqual([tool, null]);
        const parameters = format === 'openai' ? tool.function.parameters : format === 'anthropic' ? tool.input_schema : tool.parameters;
        expect(ajv.validateSchema(parameters)).toBe(true);
        expect(() => ajv.compile(parameters)).not.toThrow();
        for (const keyword of ROOT_COMBINATORS) expect(parameters).not.toHaveProperty(keyword);
        expect(parameters).not.toHaveProperty('$schema');
        const name = format === 'openai' ? tool.function.name : tool.name;
        expect(name).toBe(body.actions[index].tool_name);
      }
    });
  }

  it('openai: strict where the conversion is exact, each strict schema obeying strict mode, the others saying why', async () => {
    for (const format of ['openai', 'openai-responses']) {
      const body = await list(format);
      for (const [index, tool] of body.tools.entries()) {
        const definition = format === 'openai' ? tool.function : tool;
        const action = body.actions[index];
        const entry = SCHEMA_CORPUS.find((candidate) => candidate.name === action.action_name)!;
        expect([entry.name, definition.strict, action.strict]).toEqual([entry.name, entry.strict, entry.strict]);
        if (definition.strict) {
          expect([entry.name, strictModeViolations(definition.parameters)]).toEqual([entry.name, []]);
          expect(action.notes.filter((note: string) => note.startsWith('not strict'))).toEqual([]);
        } else {
          expect(action.notes).toEqual([expect.stringMatching(/^not strict: .+ is not supported in strict mode/)]);
        }
      }
    }
  });

  it('openai: what a model held to a strict definition sends, the execute endpoint runs (no Invalid parameters)', async () => {
    const body = await list('openai');
    for (const [index, tool] of body.tools.entries()) {
      if (!tool.function.strict) continue;
      for (const parameters of fc.sample(valuesOf(tool.function.parameters), { numRuns: 3, seed: 3 })) {
        const response = await gateway(testApp, 'POST', `/actions/${body.actions[index].action_name}/execute`, { token: tenant.jwt, body: { parameters } });
        expect([tool.function.name, parameters, response.status]).toEqual([tool.function.name, parameters, 200]);
        expect(response.body.execution.status).toBe('succeeded');
      }
    }
  });

  it('openai and anthropic: a name over 64 characters becomes an alias, and actions[] names the action to execute', async () => {
    const long = SCHEMA_CORPUS.find((entry) => entry.name.length > 64)!;
    for (const format of ['openai', 'anthropic']) {
      const body = await list(format);
      const action = body.actions.find((candidate: any) => candidate.action_name === long.name);
      expect(action.tool_name).toMatch(/^long_x{48}-[0-9a-f]{10}$/);
      expect(action.notes).toContain('name shortened to 64 characters');
      const execute = await gateway(testApp, 'POST', `/actions/${action.action_name}/execute`, { token: tenant.jwt, body: { parameters: { q: 'x' } } });
      expect(execute.body.execution.status).toBe('succeeded');
    }
  });

  it('refuses a missing or unknown format with the contract\'s 400', async () => {
    const details = 'format: must be one of openai, openai-responses, anthropic, mcp';
    for (const query of ['', '?format=gemini', '?format=openai&format=mcp']) {
      const response = await gateway(testApp, 'GET', `/tools${query}`, { token: tenant.jwt });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'Invalid request', details });
    }
  });

  it("needs a bearer token and shows only the caller's tenant", async () => {
    const response = await gateway(testApp, 'GET', '/tools?format=mcp');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'Invalid token' });
    const other = await createTenant(testApp);
    expect((await gateway(testApp, 'GET', '/tools?format=openai', { token: other.jwt })).body).toEqual({
      format: 'openai',
      tools: [],
      actions: [],
      omitted: [],
      idempotency_key: { header: 'Idempotency-Key', mcp_meta_key: 'io.modelcontextprotocol/idempotency-key', retention_hours: 24 },
    });
  });
});

describe('strict definitions, value by value', () => {
  it("never let a model send parameters the action refuses: every value a strict schema allows passes the action's own check", () => {
    // The action's own check: the compilation the service runs, on the event loop or in its worker.
    const compile = (schema: Record<string, unknown>) => compileSchema(schema, new Map(), true);
    const keywords = new ValidatorKeywords();
    for (const entry of SCHEMA_CORPUS.filter((candidate) => candidate.strict === true)) {
      const provider = toProviderSchema(entry.json_schema, keywords);
      const strict = provider.ok ? toOpenAiStrict(provider.schema) : undefined;
      if (!strict?.ok) throw new Error(`${entry.name} should convert`);
      const original = compile(entry.json_schema);
      const emitted = compile(strict.schema);
      if (!original.ok || !emitted.ok) throw new Error(`${entry.name} does not compile`);
      fc.assert(
        fc.property(valuesOf(strict.schema), (value) => {
          expect([entry.name, value, emitted.validate(value)]).toEqual([entry.name, value, true]);
          expect([entry.name, value, original.validate(value), original.validate.errors]).toEqual([entry.name, value, true, null]);
        }),
        { numRuns: 200, seed: 14 },
      );
    }
  });
});
