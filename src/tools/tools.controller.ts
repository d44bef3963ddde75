import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../auth/current-principal.decorator';
import { ArrivedAt } from '../common/request-arrival';
import { AsOf } from '../database/read-scope';
import { ApiErrors, invalid } from '../common/api-errors.decorator';
import { GATEWAY_PREFIX } from '../common/routes';
import { TenantId } from '../common/tenant-id';
import { TenantAuthenticated } from '../auth/tenant-authenticated.decorator';
import { TOOL_FORMATS, ToolListResponse } from './dto/tool-list.response';
import { ToolsService } from './tools.service';

@ApiTags('tools')
@ApiBearerAuth()
@ApiErrors(invalid(`format: must be one of ${TOOL_FORMATS.join(', ')}`), 401, 429)
@Controller(`${GATEWAY_PREFIX}/tools`)
@TenantAuthenticated()
export class ToolsController {
  constructor(private readonly tools: ToolsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listTools',
    summary: "The tenant's actions as tool definitions for a tool-calling API (see docs/llm-tools.md)",
    description:
      '`tools` is ready to pass to the provider as is; `actions[i]` says which action `tools[i]` runs (run it with POST ' +
      '/actions/{action_name}/execute) and what the conversion changed; `omitted` lists actions the format cannot describe. ' +
      'A tool call retried (a timeout, a lost answer) runs once when each call sends an `Idempotency-Key` of its own and its retry the same: ' +
      'the retry answers the first execution (`Idempotent-Replayed: true`). Over MCP the key is `_meta` `io.modelcontextprotocol/idempotency-key`.',
  })
  @ApiQuery({ name: 'format', required: true, enum: TOOL_FORMATS })
  @ApiOkResponse({ type: ToolListResponse })
  async list(@CurrentTenant() tenantId: TenantId, @ArrivedAt() arrivedAt: AsOf, @Query('format') format?: string): Promise<ToolListResponse> {
    return this.tools.list(tenantId, format, arrivedAt);
  }
}
