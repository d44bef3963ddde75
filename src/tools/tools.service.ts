import { Injectable } from '@nestjs/common';
import { ActionsService } from '../actions/actions.service';
import { InvalidRequestError } from '../common/common.errors';
import { TenantId } from '../common/tenant-id';
import { AsOf } from '../database/read-scope';
import { ExecutionDto } from '../executions/dto/execution.response';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError, InvalidParametersError, NoActiveHmacKeyError } from '../executions/executions.errors';
import { ExecutionsService } from '../executions/executions.service';
import { TOOL_FORMATS, ToolFormat, ToolListResponse } from './dto/tool-list.response';
import { TraceParent } from '../tracing/trace-context';
import { McpTool, ToolDefinitions } from './tool-definitions';

/** A tool call's outcome: the execution (whatever the receiver did), or why nothing was sent. */
type ToolCallOutcome = { ran: true; execution: ExecutionDto; replayed: boolean } | { ran: false; error: string };

/**
 * A tenant's actions as tools for language-model agents: their definitions in each tool-calling API's shape,
 * and tool calls run exactly as `POST /actions/{name}/execute` runs them. Exported for the admin backend.
 */
@Injectable()
export class ToolsService {
  constructor(
    private readonly actions: ActionsService,
    private readonly executions: ExecutionsService,
    private readonly definitions: ToolDefinitions,
  ) {}

  /** The tenant's actions as tool definitions, read as of `asOf` (see AsOf; by default, the call). */
  async list(tenantId: TenantId, format: string | undefined, asOf?: AsOf): Promise<ToolListResponse> {
    if (!TOOL_FORMATS.includes(format as ToolFormat)) throw new InvalidRequestError(`format: must be one of ${TOOL_FORMATS.join(', ')}`);
    return this.definitions.build(format as ToolFormat, await this.actions.list(tenantId, asOf));
  }

  /** Every action as an MCP tool, ordered by name. */
  async mcpTools(tenantId: TenantId, asOf?: AsOf): Promise<McpTool[]> {
    return (await this.actions.list(tenantId, asOf)).map((action) => this.definitions.mcpTool(action));
  }

  /**
   * Runs the action through the execute path: parameter check, signed delivery with retries, the stored
   * execution; or, `respondAsync`, accepts it to run in the background (as `Prefer: respond-async`: `ran` then means
   * accepted, and the execution is `pending`), and with an idempotency key at most once per key, as execute does
   * (`replayed`: the key's stored execution). Parameters the schema refuses, a tenant without an HMAC key, and a key
   * reused with other parameters or still in use are an outcome the model can read; an unknown tool (another
   * tenant's included) throws `ActionNotFoundError`, and a tenant at ASYNC_EXECUTIONS_PER_TENANT
   * `TooManyUnfinishedExecutionsError`. The execution's spans go under `trace`.
   */
  async call(
    tenantId: TenantId,
    name: string,
    parameters: Record<string, unknown>,
    request: { respondAsync: boolean; idempotencyKey?: string },
    asOf?: AsOf,
    trace?: TraceParent,
  ): Promise<ToolCallOutcome> {
    try {
      const { execution, replayed } = await this.executions.run(tenantId, name, parameters, request, asOf, trace);
      return { ran: true, execution, replayed };
    } catch (error) {
      if (error instanceof InvalidParametersError) return { ran: false, error: `${error.message}: ${error.details}` };
      if (error instanceof NoActiveHmacKeyError || error instanceof IdempotencyKeyReusedError || error instanceof IdempotencyKeyInUseError) return { ran: false, error: error.message };
      throw error;
    }
  }
}
