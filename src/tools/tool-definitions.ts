import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { IDEMPOTENCY_KEY_USE } from '../executions/idempotency';
import { OmittedActionDto, ToolActionDto, ToolFormat, ToolListResponse } from './dto/tool-list.response';
import { toOpenAiStrict } from './openai-strict';
import { toProviderSchema } from './provider-schema';
import { isJsonObject, JsonObject, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS, SINGLE_SCHEMA_KEYWORDS, ValidatorKeywords } from './schema-keywords';

/** What a tool is made from: an action's name, description and parameter schema. */
interface ToolSource {
  name: string;
  description: string;
  json_schema: JsonObject;
}

/** The Model Context Protocol's `Tool`, as `tools/list` returns it. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: JsonObject & { type: 'object' };
  /** Every tool may be called as a task (MCP 2025-11-25): accepted at once, run in the background. */
  execution: { taskSupport: 'optional' };
  /** Every call may carry an idempotency key: where, and for how long it holds (IDEMPOTENCY_KEY_USE). */
  _meta: { [TOOL_IDEMPOTENCY_META_KEY]: typeof IDEMPOTENCY_KEY_USE };
}

/** The `_meta` key of an MCP tool that says its calls may carry an idempotency key, and how. */
export const TOOL_IDEMPOTENCY_META_KEY = 'action-gateway/idempotency-key';

/** OpenAI and Anthropic take tool names of 1 to 64 of `[a-zA-Z0-9_-]`; action names may have 100 characters. */
const PROVIDER_NAME_MAX_LENGTH = 64;
const ALIAS_HASH_LENGTH = 10;

/**
 * A name a 64-character provider accepts: the action's own name when it fits, else its first 53 characters, a
 * hyphen and 10 hex digits of its SHA-256. The hyphen cannot occur in an action name, so an alias never equals a
 * real action's name, and the same action always gets the same alias.
 */
export function providerToolName(actionName: string): string {
  if (actionName.length <= PROVIDER_NAME_MAX_LENGTH) return actionName;
  const hash = createHash('sha256').update(actionName).digest('hex').slice(0, ALIAS_HASH_LENGTH);
  return `${actionName.slice(0, PROVIDER_NAME_MAX_LENGTH - ALIAS_HASH_LENGTH - 1)}-${hash}`;
}

interface Converted {
  tool: JsonObject;
  strict: boolean | null;
  notes: string[];
}

/**
 * Turns actions into the tool definitions of each tool-calling API (see docs/llm-tools.md for the mapping). The
 * definitions themselves stay exactly what the provider takes; what the conversion changed or could not do is
 * said beside them, in `actions` and `omitted`, and how a call is made safe to retry in `idempotency_key` (an MCP
 * tool says it in its `_meta` too).
 */
@Injectable()
export class ToolDefinitions {
  /** Two Ajv instances: made at the first request that needs them rather than at boot. */
  private keywordsOf?: ValidatorKeywords;

  private get keywords(): ValidatorKeywords {
    return (this.keywordsOf ??= new ValidatorKeywords());
  }

  build(format: ToolFormat, sources: readonly ToolSource[]): ToolListResponse {
    const tools: JsonObject[] = [];
    const actions: ToolActionDto[] = [];
    const omitted: OmittedActionDto[] = [];
    const taken = new Set<string>();
    for (const source of sources) {
      const converted = format === 'mcp' ? { tool: { ...this.mcpTool(source) }, strict: null, notes: [] } : this.providerTool(format, source);
      if (typeof converted === 'string') {
        omitted.push({ action_name: source.name, reason: converted });
        continue;
      }
      const toolName = format === 'mcp' ? source.name : providerToolName(source.name);
      if (taken.has(toolName)) {
        omitted.push({ action_name: source.name, reason: `its shortened name ${toolName} is already another action's` });
        continue;
      }
      taken.add(toolName);
      const notes = toolName === source.name ? converted.notes : [`name shortened to ${PROVIDER_NAME_MAX_LENGTH} characters`, ...converted.notes];
      tools.push(converted.tool);
      actions.push({ tool_name: toolName, action_name: source.name, strict: converted.strict, notes });
    }
    return { format, tools, actions, omitted, idempotency_key: IDEMPOTENCY_KEY_USE };
  }

  /**
   * The action as an MCP tool: `inputSchema` is its `json_schema`, with the `type: "object"` MCP requires; any
   * tool may be called as a task, and with an idempotency key (said in `_meta`, the protocol's place for what is
   * a server's own).
   */
  mcpTool(source: ToolSource): McpTool {
    return {
      name: source.name,
      description: source.description,
      inputSchema: mcpInputSchema(source.json_schema),
      execution: { taskSupport: 'optional' },
      _meta: { [TOOL_IDEMPOTENCY_META_KEY]: IDEMPOTENCY_KEY_USE },
    };
  }

  /** An OpenAI or Anthropic definition, or why the action cannot be one. */
  private providerTool(format: Exclude<ToolFormat, 'mcp'>, source: ToolSource): Converted | string {
    const provider = toProviderSchema(source.json_schema, this.keywords);
    if (!provider.ok) return provider.reason;
    const name = providerToolName(source.name);
    const description = source.description;
    if (format === 'anthropic') return { tool: { name, description, input_schema: provider.schema }, strict: null, notes: [] };

    const strict = toOpenAiStrict(provider.schema);
    const parameters = strict.ok ? strict.schema : withArrayItems(provider.schema);
    const notes = strict.ok ? [] : [`not strict: ${strict.reasons.join('; ')}`];
    const tool =
      format === 'openai'
        ? { type: 'function', function: { name, description, parameters, strict: strict.ok } }
        : { type: 'function', name, description, parameters, strict: strict.ok };
    return { tool, strict: strict.ok, notes };
  }
}

/**
 * MCP's `Tool.inputSchema` must be an object schema whose `properties` are objects. The action's schema is kept
 * as stored (key order included) unless it lacks `type` (parameters are always an object, so adding it changes
 * nothing) or has a boolean property schema (`true` is `{}`, `false` is `{"not": {}}`, the same in JSON Schema).
 */
function mcpInputSchema(schema: JsonObject): McpTool['inputSchema'] {
  let result = schema;
  if (isJsonObject(schema.properties) && Object.values(schema.properties).some((value) => typeof value === 'boolean')) {
    const properties = Object.fromEntries(Object.entries(schema.properties).map(([name, value]) => [name, value === true ? {} : value === false ? { not: {} } : value]));
    result = { ...schema, properties };
  }
  return (schema.type === 'object' ? result : { type: 'object', ...result }) as McpTool['inputSchema'];
}

/**
 * OpenAI refuses an array schema without `items` ("array schema missing items"), even outside strict mode; an
 * absent `items` means any item, which `items: {}` says too.
 */
function withArrayItems(node: unknown): JsonObject {
  if (!isJsonObject(node)) return node as JsonObject;
  const out: JsonObject = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (SINGLE_SCHEMA_KEYWORDS.has(keyword) || keyword === 'items') out[keyword] = withArrayItems(value);
    else if (SCHEMA_LIST_KEYWORDS.has(keyword) && Array.isArray(value)) out[keyword] = value.map(withArrayItems);
    else if (SCHEMA_MAP_KEYWORDS.has(keyword) && isJsonObject(value)) out[keyword] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, Array.isArray(child) ? child : withArrayItems(child)]));
    else out[keyword] = value;
  }
  const isArray = out.type === 'array' || (Array.isArray(out.type) && out.type.includes('array'));
  if (isArray && !('items' in out)) out.items = {};
  return out;
}
