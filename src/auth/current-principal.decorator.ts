import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { TenantId } from '../common/tenant-id';
import { Principal } from './principal';

/** The tenant of the bearer token; only on routes behind `BearerAuthGuard`. */
export const CurrentTenant = createParamDecorator(
  (_: unknown, context: ExecutionContext): TenantId =>
    (context.switchToHttp().getRequest<FastifyRequest & { user: Principal }>().user).tenantId,
);
