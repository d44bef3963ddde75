import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import type { FastifyRequest } from 'fastify';
import { BearerAuthGuard } from '../../auth/bearer-auth.guard';
import { InvalidTokenError } from '../../common/common.errors';
import { GatewayThrottlerGuard } from '../../rate-limit/gateway-throttler.guard';
import { EXCHANGE_THROTTLER } from '../../rate-limit/rate-limit.decorators';

const REALM = 'Bearer realm="action-gateway"';

/**
 * The bearer check, with the challenge the MCP authorization spec asks a 401 to carry (RFC 6750 section 3): a
 * request without credentials gets `WWW-Authenticate: Bearer realm="action-gateway"`, one with a bad token also
 * `error="invalid_token"`. The body stays the gateway's `{"error":"Invalid token"}`.
 */
@Injectable()
export class BearerChallengeGuard implements CanActivate {
  constructor(private readonly bearer: BearerAuthGuard) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      return await this.bearer.canActivate(context);
    } catch (error) {
      if (error instanceof InvalidTokenError) {
        const presented = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization !== undefined;
        error.headers['WWW-Authenticate'] = presented ? `${REALM}, error="invalid_token", error_description="The access token is invalid or expired"` : REALM;
      }
      throw error;
    }
  }
}

/** As `TenantAuthenticated()` (the bearer token, then the tenant's hourly budget), with the 401 challenge. */
export const McpAuthenticated = () =>
  applyDecorators(UseGuards(BearerChallengeGuard, GatewayThrottlerGuard), SkipThrottle({ [EXCHANGE_THROTTLER]: true }));
