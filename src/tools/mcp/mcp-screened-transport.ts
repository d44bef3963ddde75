import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { ZodType } from 'zod';
import { paramsProblem } from './mcp-params';

/** JSON-RPC's "Invalid params" (the SDK's ErrorCode.InvalidParams). */
export const INVALID_PARAMS = -32602;

/**
 * The transport as the SDK's server sees it, with each request's params checked first against the request
 * schema of its method. The SDK parses params itself before calling a handler and, when they are not the
 * protocol's shape, answers -32603 (an internal error) with its schema library's dump as the message; the
 * protocol's answer is -32602 Invalid params, saying briefly which field and why. Checking here, between the
 * transport and the server, keeps the transport's own refusals (406, -32700, protocol version) first, as for any
 * request, and covers every method the server answers, its built-in `initialize` and `ping` included.
 */
export class McpScreenedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

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
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if ('method' in message && 'id' in message) {
      const schema = this.schemas.get(message.method);
      const problem = schema && paramsProblem(schema, message);
      if (problem !== undefined) {
        const refusal = { jsonrpc: '2.0' as const, id: message.id, error: { code: INVALID_PARAMS, message: `Invalid params: ${problem}` } };
        this.send(refusal).catch((error: Error) => this.onerror?.(error));
        return;
      }
    }
    this.onmessage?.(message, extra);
  }
}
