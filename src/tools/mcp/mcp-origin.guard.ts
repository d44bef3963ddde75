import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { isOwnOrigin } from '../../common/request-origin';
import { AppConfig } from '../../config/app-config';
import { OriginNotAllowedError } from './mcp.errors';

/**
 * The MCP transport's rule (Streamable HTTP: servers MUST validate `Origin`, and answer 403 to an invalid one): a
 * request whose `Origin` is neither this service's own (PUBLIC_URL, the connection's: request-origin.ts) nor one
 * of MCP_ALLOWED_ORIGINS is refused before its bearer token is even read, so a page that a rebound DNS name
 * points at the service gets nothing. Without `Origin` (agents, servers: no browser) nothing changes.
 */
@Injectable()
export class McpOriginGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const { origin } = request.headers;
    if (origin !== undefined && !isOwnOrigin(origin, request, this.config.console.publicUrl, this.config.mcpAllowedOrigins)) throw new OriginNotAllowedError();
    return true;
  }
}
