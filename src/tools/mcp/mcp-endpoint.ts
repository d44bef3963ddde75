import { Injectable, Logger } from '@nestjs/common';
import type { CallToolResult, CreateTaskResult, ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import type { ZodType } from 'zod';
import { ActionNotFoundError } from '../../actions/actions.errors';
import { ServiceUnavailableError } from '../../common/common.errors';
import { isDatabaseUnavailable } from '../../database/database-errors';
import { TenantId } from '../../common/tenant-id';
import { AsOf } from '../../database/read-scope';
import { ATTRIBUTE } from '../../tracing/span-attributes';
import { TraceParent } from '../../tracing/trace-context';
import { Tracing } from '../../tracing/tracing';
import { AppConfig } from '../../config/app-config';
import { ExecutionLogService } from '../../executions/execution-log.service';
import { TooManyUnfinishedExecutionsError } from '../../executions/executions.errors';
import { IDEMPOTENCY_META_KEY, isIdempotencyKey } from '../../executions/idempotency';
import { ToolsService } from '../tools.service';
import { ExecutionTaskStore, TASK_POLL_MS, toolResult } from './execution-tasks';
import { McpCursors } from './mcp-cursors';
import { INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, McpScreenedTransport } from './mcp-screened-transport';

/** How many tools one `tools/list` page holds; a longer list continues with `nextCursor`. */
export const TOOLS_PAGE_SIZE = 50;
export { EXECUTION_META_KEY } from './execution-tasks';
/** The `_meta` key of a tools/call that carries its idempotency key (as execute's Idempotency-Key header does). */
export { IDEMPOTENCY_META_KEY };
/** The `_meta` key of a result that is a key's stored execution given again (as execute's Idempotent-Replayed header). */
export const REPLAYED_META_KEY = 'action-gateway/idempotent-replayed';

const SERVER_INFO = { name: 'action-gateway', version: '1.0.0' };
const INSTRUCTIONS =
  "Each tool is one of this tenant's actions: calling it sends a signed request to the action's webhook and returns the webhook's result as text. " +
  'A call made as a task (tools/call with `task`) is accepted at once and runs in the background; tasks/get tells how it goes and tasks/result gives its result. ' +
  `A call retried after a timeout or a lost answer runs once if each call carries a key of its own in \`_meta\` "${IDEMPOTENCY_META_KEY}" (1 to 255 printable ASCII characters, ` +
  'a UUID), sent again unchanged with the retry: the first answer comes back, and the webhook is not called twice.';
/**
 * Tasks (MCP 2025-11-25): tools/call may be made as one, and tasks/list lists them. No `cancel`: a call accepted is
 * made (a receiver may have it already), so tasks/cancel is not offered.
 */
const TASKS_CAPABILITY = { list: {}, requests: { tools: { call: {} } } };

/**
 * The MCP server (Streamable HTTP, stateless): every HTTP request gets a server and transport of its own for the
 * authenticated tenant, so any replica can answer any request and nothing is kept between them. Answers are JSON
 * (`enableJsonResponse`), never an SSE stream: nothing here sends progress or server-initiated messages.
 *
 * The SDK's low-level `Server` is used rather than `McpServer`: tools here are defined by JSON Schemas stored
 * with the actions, not by zod schemas registered in code.
 */
@Injectable()
export class McpEndpoint {
  private readonly logger = new Logger('Mcp');
  /** The SDK (with zod) takes a few hundred milliseconds to load: loaded at the first MCP request, not at boot. */
  private sdk?: Promise<Sdk>;

  constructor(
    private readonly tools: ToolsService,
    private readonly cursors: McpCursors,
    private readonly tracing: Tracing,
    private readonly log: ExecutionLogService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Answers one Streamable HTTP POST whose body the app has already read and parsed; reads as of `asOf` (AsOf).
   * `tools/list` and `tools/call` are spans under `trace`, as MCP's semantic conventions name them. `keyHeader`: the
   * request's Idempotency-Key header, the key of a tools/call whose `_meta` names none.
   */
  async handle(tenantId: TenantId, request: Request, body: unknown, asOf?: AsOf, trace?: TraceParent, keyHeader?: string | string[]): Promise<Response> {
    const sdk = await (this.sdk ??= loadSdk());
    const server = this.serverFor(sdk, tenantId, body, keyHeader, asOf, trace);
    const transport = new sdk.WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const screened = new McpScreenedTransport(transport, sdk.requestSchemas);
    screened.onerror = (error) => this.logger.debug({ err: error }, 'MCP request refused by the transport');
    await server.connect(screened);
    try {
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      await server.close();
    }
  }

  private serverFor(sdk: Sdk, tenantId: TenantId, body: unknown, keyHeader: string | string[] | undefined, asOf: AsOf | undefined, trace: TraceParent | undefined) {
    const server = new sdk.Server(SERVER_INFO, {
      capabilities: { tools: { listChanged: false }, tasks: TASKS_CAPABILITY },
      instructions: INSTRUCTIONS,
      taskStore: new ExecutionTaskStore(tenantId, this.log, this.config.executionRetentionDays),
      defaultTaskPollInterval: TASK_POLL_MS,
    });
    // The SDK answers tasks/cancel for any task store; not offered here (TASKS_CAPABILITY), it is a method not found.
    server.removeRequestHandler('tasks/cancel');
    server.setRequestHandler(sdk.ListToolsRequestSchema, (request) =>
      this.tracing.span(trace, 'tools/list', { [ATTRIBUTE.mcpMethod]: 'tools/list', [ATTRIBUTE.tenantId]: tenantId }, () =>
        this.guarded(() => this.listTools(tenantId, request.params?.cursor, asOf)),
      ),
    );
    server.setRequestHandler(sdk.CallToolRequestSchema, (request) =>
      this.tracing.span(
        trace,
        `tools/call ${request.params.name}`,
        { [ATTRIBUTE.mcpMethod]: 'tools/call', [ATTRIBUTE.toolName]: request.params.name, [ATTRIBUTE.tenantId]: tenantId },
        ({ trace: call }) =>
          this.guarded<CallToolResult | CreateTaskResult>(() => {
            const parameters = originalArguments(body) ?? request.params.arguments ?? {};
            const key = toolCallKey(request.params._meta?.[IDEMPOTENCY_META_KEY], keyHeader);
            return request.params.task
              ? this.callToolAsTask(tenantId, request.params.name, parameters, key, asOf, call)
              : this.callTool(tenantId, request.params.name, parameters, key, asOf, call);
          }),
      ),
    );
    return server;
  }

  private async listTools(tenantId: TenantId, cursor: string | undefined, asOf: AsOf | undefined): Promise<ListToolsResult> {
    const tools = await this.tools.mcpTools(tenantId, asOf);
    const after = cursor === undefined ? undefined : this.cursors.read(tenantId, cursor);
    if (cursor !== undefined && after === undefined) throw new JsonRpcError(INVALID_PARAMS, 'Invalid cursor');
    // Names sort bytewise (COLLATE "C"), as JavaScript compares them: the page starts after the cursor's name, so a
    // tool added or removed between pages neither repeats nor shifts the others.
    const start = after === undefined ? 0 : tools.findIndex((tool) => tool.name > after);
    const page = start < 0 ? [] : tools.slice(start, start + TOOLS_PAGE_SIZE);
    const more = start >= 0 && start + TOOLS_PAGE_SIZE < tools.length;
    return more ? { tools: page, nextCursor: this.cursors.make(tenantId, page[page.length - 1].name) } : { tools: page };
  }

  private async callTool(tenantId: TenantId, name: string, parameters: Record<string, unknown>, key: string | undefined, asOf: AsOf | undefined, trace: TraceParent): Promise<CallToolResult> {
    let outcome;
    try {
      outcome = await this.tools.call(tenantId, name, parameters, { respondAsync: false, idempotencyKey: key }, asOf, trace);
    } catch (error) {
      // Another tenant's action is as unknown as one that does not exist, and so is a name no action can have:
      // the same error, word for word, naming what was asked for (JSON-escaped on the wire like any string).
      if (error instanceof ActionNotFoundError) throw new JsonRpcError(INVALID_PARAMS, `Unknown tool: ${name}`);
      throw error;
    }
    if (!outcome.ran) return { content: [{ type: 'text', text: outcome.error }], isError: true };
    const { execution, replayed } = outcome;
    // The key's first call was made as a task and goes on: its task says how (tasks/get, tasks/result).
    if (execution.status === 'pending' || execution.status === 'running') {
      return { content: [{ type: 'text', text: `this idempotency key's call was made as task ${execution.id}, still ${execution.status}: tasks/result gives its result` }], isError: true };
    }
    const result = toolResult(execution);
    return replayed ? { ...result, _meta: { ...result._meta, [REPLAYED_META_KEY]: true } } : result;
  }

  /**
   * tools/call made as a task: the execution is accepted as `Prefer: respond-async` accepts it and its task answered
   * at once; the call runs in the background (tasks/get, tasks/result). Nothing accepted, nothing runs: parameters
   * the schema refuses, a tenant without an HMAC key, a key reused with other parameters or still in use, or a tenant
   * at ASYNC_EXECUTIONS_PER_TENANT get a JSON-RPC error with the text a synchronous call's result would carry (a task
   * is only created for a call that will be made). A key already used answers the task of its execution.
   */
  private async callToolAsTask(
    tenantId: TenantId,
    name: string,
    parameters: Record<string, unknown>,
    key: string | undefined,
    asOf: AsOf | undefined,
    trace: TraceParent,
  ): Promise<CreateTaskResult> {
    let outcome;
    try {
      outcome = await this.tools.call(tenantId, name, parameters, { respondAsync: true, idempotencyKey: key }, asOf, trace);
    } catch (error) {
      if (error instanceof ActionNotFoundError) throw new JsonRpcError(INVALID_PARAMS, `Unknown tool: ${name}`);
      if (error instanceof TooManyUnfinishedExecutionsError) throw new JsonRpcError(INVALID_REQUEST, error.message);
      throw error;
    }
    if (!outcome.ran) throw new JsonRpcError(INVALID_PARAMS, outcome.error);
    const { id, status, error, attempts, created_at } = outcome.execution;
    const store = new ExecutionTaskStore(tenantId, this.log, this.config.executionRetentionDays);
    const task = { task: store.task({ id, status, error, attempts, attemptLog: [], createdAt: new Date(created_at) }) };
    return outcome.replayed ? { ...task, _meta: { [REPLAYED_META_KEY]: true } } : task;
  }

  /** Failures other than the protocol's own never reach the client with their internals. */
  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof JsonRpcError) throw error;
      if (error instanceof ServiceUnavailableError || isDatabaseUnavailable(error)) {
        this.logger.warn({ err: error }, 'database unavailable');
        throw new JsonRpcError(INTERNAL_ERROR, 'Service unavailable');
      }
      this.logger.error({ err: error }, 'unexpected failure');
      throw new JsonRpcError(INTERNAL_ERROR, 'Internal server error');
    }
  }
}

/**
 * A tool call's idempotency key: `_meta`'s IDEMPOTENCY_META_KEY, else the HTTP request's Idempotency-Key header; as
 * execute's header, 1 to 255 printable ASCII characters (else the call is refused as invalid params).
 */
function toolCallKey(meta: unknown, header: string | string[] | undefined): string | undefined {
  const key = meta === undefined ? header : meta;
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !isIdempotencyKey(key)) {
    throw new JsonRpcError(INVALID_PARAMS, `Invalid idempotency key (_meta "${IDEMPOTENCY_META_KEY}", or the Idempotency-Key header): must be 1 to 255 printable ASCII characters`);
  }
  return key;
}

/**
 * The `arguments` of the request body itself rather than the SDK's parsed copy: the body's objects carry the
 * literals of numbers a JavaScript number does not hold (json-numbers.ts) and the written order of integer-like
 * keys (json-key-order.ts), so a tool call forwards 9007199254740993 digit for digit and `{"b":…,"1":…}` in that
 * order, as execute does. One message per request (the body is an object), already checked by the SDK.
 */
function originalArguments(body: unknown): Record<string, unknown> | undefined {
  const params = isRecord(body) && body.method === 'tools/call' && isRecord(body.params) ? body.params : undefined;
  return params && isRecord(params.arguments) ? params.arguments : undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

type Sdk = Awaited<ReturnType<typeof loadSdk>>;

async function loadSdk() {
  const [{ Server }, { WebStandardStreamableHTTPServerTransport }, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const { CallToolRequestSchema, ListToolsRequestSchema } = types;
  // Every method the server answers: its own two, the `initialize` and `ping` the SDK's Server answers itself, and
  // the task methods it answers from the task store (ExecutionTaskStore); tasks/cancel is not offered.
  const served = [
    types.InitializeRequestSchema,
    types.PingRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    types.GetTaskRequestSchema,
    types.GetTaskPayloadRequestSchema,
    types.ListTasksRequestSchema,
  ];
  const requestSchemas = new Map<string, ZodType>(served.map((schema) => [schema.shape.method.value, schema]));
  return { Server, WebStandardStreamableHTTPServerTransport, CallToolRequestSchema, ListToolsRequestSchema, requestSchemas };
}

/**
 * A JSON-RPC error for the SDK to send as `{code, message}`. (The SDK's McpError would put "MCP error <code>: "
 * in front of the message on the wire; its client adds that prefix itself.)
 */
class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
