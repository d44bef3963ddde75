import { CallToolRequestSchema, InitializeRequestSchema, ListToolsRequestSchema, PingRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { paramsProblem } from './mcp-params';

const request = (method: string, params?: unknown) => ({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) });

describe('paramsProblem', () => {
  it('accepts params of the protocol shape', () => {
    expect(paramsProblem(ListToolsRequestSchema, request('tools/list'))).toBeUndefined();
    expect(paramsProblem(CallToolRequestSchema, request('tools/call', { name: 'x', arguments: { a: 1 } }))).toBeUndefined();
    const initialize = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } };
    expect(paramsProblem(InitializeRequestSchema, request('initialize', initialize))).toBeUndefined();
  });

  it('says which field and why, in words rather than the schema library’s report', () => {
    expect(paramsProblem(ListToolsRequestSchema, request('tools/list', { cursor: 5 }))).toBe('params.cursor: must be a string');
    expect(paramsProblem(CallToolRequestSchema, request('tools/call'))).toBe('params: is required');
    expect(paramsProblem(CallToolRequestSchema, request('tools/call', { name: 'x', task: { ttl: 'soon' } }))).toBe('params.task.ttl: must be a number');
    expect(paramsProblem(PingRequestSchema, request('ping', { _meta: { progressToken: {} } }))).toBe('params._meta.progressToken: must be a string or a number');
  });

  it('names a field once, and at most three fields', () => {
    // elicitation.form fails as an object and as a record: one problem.
    const capabilities = { elicitation: { form: 3 }, sampling: 1, roots: 2, experimental: 4 };
    const problem = paramsProblem(InitializeRequestSchema, request('initialize', { protocolVersion: '1', capabilities, clientInfo: { name: 'c', version: '1' } }));
    expect(problem?.split('; ')).toHaveLength(3);
    expect(problem?.match(/params\.capabilities\.elicitation\.form/g)).toHaveLength(1);
  });

  it('echoes nothing of the request but the schema’s own keys', () => {
    const problem = paramsProblem(CallToolRequestSchema, request('tools/call', { name: '<script>', arguments: 'secret-value', task: { ttl: 'secret-ttl' } }));
    expect(problem).toBe('params.task.ttl: must be a number; params.arguments: must be an object');
    expect(problem).not.toMatch(/secret|script/);
  });
});
