import { Logger } from '@nestjs/common';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ZodType } from 'zod';
import { McpScreenedTransport } from './mcp-screened-transport';

/** A transport that records what the server sends and lets the test deliver what the client sent. */
function fakeTransport(): Transport & { sent: JSONRPCMessage[] } {
  const sent: JSONRPCMessage[] = [];
  return { sent, start: async () => undefined, close: async () => undefined, send: async (message) => void sent.push(message) };
}

describe('McpScreenedTransport', () => {
  const schemas = new Map<string, ZodType>([['tools/call', CallToolRequestSchema]]);

  it('sends an internal error with nothing but "Internal server error", whatever the SDK put in it', async () => {
    const inner = fakeTransport();
    const screened = new McpScreenedTransport(inner, schemas);
    // What the SDK said is logged for the operator, once per screened error (and not printed by this test).
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    await screened.send({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Server does not support task creation (required for tools/call)' } });
    await screened.send({ jsonrpc: '2.0', id: 2, error: { code: -32603, message: '[\n  {\n    "expected": "string" }]' } });
    await screened.send({ jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'Service unavailable' } });
    await screened.send({ jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'Unknown tool: x' } });
    expect(inner.sent).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal server error' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'Internal server error' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'Service unavailable' } },
      { jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'Unknown tool: x' } },
    ]);
    expect(logged.mock.calls).toEqual([
      [{ error: { code: -32603, message: 'Server does not support task creation (required for tools/call)' } }, 'MCP internal error'],
      [{ error: { code: -32603, message: '[\n  {\n    "expected": "string" }]' } }, 'MCP internal error'],
    ]);
    logged.mockRestore();
  });

  it('takes the SDK\'s "MCP error <code>: " off a message, which its client adds again', async () => {
    const inner = fakeTransport();
    const screened = new McpScreenedTransport(inner, schemas);
    await screened.send({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'MCP error -32602: Failed to retrieve task: Task not found' } });
    await screened.send({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'MCP error -32600: not this code' } });
    expect(inner.sent).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Failed to retrieve task: Task not found' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'MCP error -32600: not this code' } },
    ]);
  });

  it('hands the server a task augmentation on tools/call only, and answers malformed params itself', () => {
    const inner = fakeTransport();
    const screened = new McpScreenedTransport(inner, schemas);
    const received: JSONRPCMessage[] = [];
    screened.onmessage = (message) => void received.push(message);
    inner.onmessage?.({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {}, task: { ttl: 5 } } });
    inner.onmessage?.({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { task: { ttl: 5 } } });
    inner.onmessage?.({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 3 } });
    inner.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(received).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {}, task: { ttl: 5 } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    expect(inner.sent).toEqual([{ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Invalid params: params.name: must be a string' } }]);
  });
});
