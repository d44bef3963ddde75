import { Module } from '@nestjs/common';
import { ActionsModule } from '../actions/actions.module';
import { ExecutionsModule } from '../executions/executions.module';
import { TracingModule } from '../tracing/tracing.module';
import { McpCursors } from './mcp/mcp-cursors';
import { McpEndpoint } from './mcp/mcp-endpoint';
import { ToolDefinitions } from './tool-definitions';
import { ToolsService } from './tools.service';

/** Actions as tools for language-model agents: definitions per tool-calling API, and the MCP server. No routes. */
@Module({
  imports: [ActionsModule, ExecutionsModule, TracingModule],
  providers: [ToolDefinitions, ToolsService, McpCursors, McpEndpoint],
  exports: [ToolsService, McpEndpoint],
})
export class ToolsModule {}
