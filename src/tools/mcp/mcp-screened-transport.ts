import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { Logger } from '@nestjs/common';
import type { ZodType } from 'zod';
import { paramsProblem } from './mcp-params';

/** JSON-RPC's "Invalid request", "Invalid params" and "Internal error" (the SDK's ErrorCode). */
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** All an internal error ever says (docs/llm-tools.md): the database is down, or something else failed. */
const INTERNAL_ERROR_MESSAGES: readonly string[] = ['Service unavailable', 'Internal server error'];

/**
 * The transport as the SDK's server sees it, with each request's params checked first against the request
 * schema of its method. The SDK parses params itself before calling a handler and, when they are not the
 * protocol's shape, answers -32603 (an internal error) with its schema library's dump as the message; the
 * protocol's answer is -32602 Invalid params, saying briefly which field and why. Checking here, between the
 * transport and the server, keeps the transport's own refusals (406, -32700, protocol version) first, as for any
 * request, and covers every method the server answers, its built-in `initialize` and `ping` included.
 *
 * Three more corrections on the way: a request's task augmentation (`params.task`) is dropped from every method but
 * tools/call, the one this server declares tasks for, because a request type without the capability must be
 * processed normally (MCP 2025-11-25, Tasks) where the SDK answers -32603; an internal error the SDK would send
 * with some other message (an exception's text) says only `Internal server error`, the text being logged; and the
 * SDK's "MCP error <code>: " prefix, which its client adds again, is taken off.
 */
export class McpScreenedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly logger = new Logger('Mcp');

  /** `schemas`: the request schema of every method the server has a handler for, by method. */
  constructor(
    private readonly inner: Transport,
    private readonly schemas: ReadonlyMap<string, ZodType>,
  ) {
    inner.onmessage = (message, extra) => this.receive(message, extra);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('error' in message && message.error.code === INTERNAL_ERROR && !INTERNAL_ERROR_MESSAGES.includes(message.error.message)) {
      this.logger.error({ error: message.error }, 'MCP internal error');
      return this.inner.send({ jsonrpc: '2.0', id: message.id, error: { code: INTERNAL_ERROR, message: 'Internal server error' } }, options);
    }
    // The SDK's own handlers (the task methods) throw its McpError, whose message starts with "MCP error <code>: ",
    // which its client adds again: the wire carries the message without it, as the protocol's examples do.
    const prefix = 'error' in message ? `MCP error ${message.error.code}: ` : undefined;
    if (prefix !== undefined && 'error' in message && message.error.message.startsWith(prefix)) {
      return this.inner.send({ ...message, error: { ...message.error, message: message.error.message.slice(prefix.length) } }, options);
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (!('method' in message && 'id' in message)) {
      this.onmessage?.(message, extra);
      return;
    }
    let request = message;
    if (request.method !== 'tools/call' && request.params && 'task' in request.params) {
      const { task: _ignored, ...params } = request.params;
      request = { ...request, params };
    }
    const schema = this.schemas.get(request.method);
    const problem = schema && paramsProblem(schema, request);
    if (problem === undefined) {
      this.onmessage?.(request, extra);
      return;
    }
    const refusal = { jsonrpc: '2.0' as const, id: request.id, error: { code: INVALID_PARAMS, message: `Invalid params: ${problem}` } };
    this.send(refusal).catch((error: Error) => this.onerror?.(error));
  }
}
