import { ApiProperty } from '@nestjs/swagger';

export const TOOL_FORMATS = ['openai', 'openai-responses', 'anthropic', 'mcp'] as const;
export type ToolFormat = (typeof TOOL_FORMATS)[number];

/** What a tool of `tools` runs, and what the conversion had to say about it. */
export class ToolActionDto {
  @ApiProperty({ example: 'get_weather', description: 'The name the model calls the tool by (tools[i]\'s name)' })
  tool_name: string;

  @ApiProperty({
    example: 'get_weather',
    description: 'The action to run for it: POST /actions/{action_name}/execute. Differs from tool_name only for names over 64 characters (openai, anthropic)',
  })
  action_name: string;

  @ApiProperty({ type: 'boolean', nullable: true, example: true, description: 'For openai formats: whether the definition is in strict mode; null otherwise' })
  strict: boolean | null;

  @ApiProperty({ type: [String], example: [], description: 'Why the definition is not strict, or what else the conversion changed' })
  notes: string[];
}

export class OmittedActionDto {
  @ApiProperty({ example: 'pick_one' })
  action_name: string;

  @ApiProperty({ example: "the schema's root uses `oneOf`, which tool parameters cannot have at the top level" })
  reason: string;
}

/** How a tool call is made safe to retry (docs/llm-tools.md, "Retrying a call safely"). */
export class IdempotencyKeyUseDto {
  @ApiProperty({ example: 'Idempotency-Key', description: 'The header of POST /actions/{action_name}/execute (or of the MCP request) that carries the key: 1 to 255 printable ASCII characters, one per logical call' })
  header: 'Idempotency-Key';

  @ApiProperty({ example: 'io.modelcontextprotocol/idempotency-key', description: 'The `_meta` key of an MCP tools/call that carries it' })
  mcp_meta_key: 'io.modelcontextprotocol/idempotency-key';

  @ApiProperty({ example: 24, description: 'How long a key answers its first call\'s execution again, in hours' })
  retention_hours: number;
}

export class ToolListResponse {
  @ApiProperty({ enum: TOOL_FORMATS })
  format: ToolFormat;

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description:
      'The definitions, exactly as the provider takes them (pass the list as `tools`): openai `{type:"function", function:{name, description, parameters, strict}}` ' +
      '(Chat Completions); openai-responses `{type:"function", name, description, parameters, strict}` (Responses API); anthropic ' +
      '`{name, description, input_schema}`; mcp `{name, description, inputSchema, execution, _meta}` (the Model Context Protocol\'s Tool; `_meta` says a call may carry an idempotency key). Ordered by action name.',
    example: [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather for a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
          strict: true,
        },
      },
    ],
  })
  tools: Record<string, unknown>[];

  @ApiProperty({ type: [ToolActionDto], description: 'One entry per tool, in the same order' })
  actions: ToolActionDto[];

  @ApiProperty({ type: [OmittedActionDto], description: 'Actions this format cannot describe without letting the model send parameters the action refuses' })
  omitted: OmittedActionDto[];

  @ApiProperty({ type: IdempotencyKeyUseDto, description: 'Any call of any of these tools may carry an idempotency key, which makes a retry safe (the definitions themselves stay as the provider takes them)' })
  idempotency_key: IdempotencyKeyUseDto;
}
