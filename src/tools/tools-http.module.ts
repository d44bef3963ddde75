import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { McpController } from './mcp/mcp.controller';
import { ToolsController } from './tools.controller';
import { ToolsModule } from './tools.module';

/** `GET /tools` and the MCP endpoint `/mcp`. */
@Module({
  imports: [ToolsModule, AuthModule, RateLimitModule],
  controllers: [ToolsController, McpController],
})
export class ToolsHttpModule {}
