import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { bearerCredentials } from '../common/bearer-credentials';
import { InvalidTokenError } from '../common/common.errors';
import { TenantNotFoundError } from '../tenancy/tenancy.errors';
import { CsrfTokenError, OperatorsOnlyError } from './console-auth.errors';
import { ConsoleSessionsService } from './console-sessions.service';
import { ManagementPrincipal } from './management-principal';
import { OPERATORS_ONLY } from './operators-only.decorator';
import { CSRF_HEADER, readSessionCookie } from './session-cookie';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type ManagementRequest = FastifyRequest & { management?: ManagementPrincipal; params: Record<string, string | undefined> };

/**
 * Who may call the management API: `Authorization: Bearer <ADMIN_API_KEY>` (compared in constant time), or a
 * console session cookie. With a cookie, state-changing methods also need the session's CSRF token in
 * `X-CSRF-Token` (the cookie is SameSite=Strict too). A tenant session may use only routes under its own
 * `/tenants/{tenant_id}` (another tenant is `Tenant not found`, as if it did not exist), and not those marked
 * `@OperatorsOnly()`.
 */
@Injectable()
export class ManagementAuthGuard implements CanActivate {
  constructor(
    private readonly sessions: ConsoleSessionsService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ManagementRequest>();
    request.management = await this.authenticate(request);
    if (request.management.kind === 'tenant') this.authorizeTenant(context, request, request.management.tenantId);
    return true;
  }

  private async authenticate(request: ManagementRequest): Promise<ManagementPrincipal> {
    const header = request.headers.authorization;
    if (header !== undefined) {
      // Explicit credentials win: a wrong key is refused even when a session cookie comes along.
      const key = bearerCredentials(header);
      if (!key || !this.sessions.isAdminKey(key)) throw new InvalidTokenError();
      return { kind: 'operator' };
    }
    const secret = readSessionCookie(request);
    const resolved = secret ? await this.sessions.resolve(secret) : undefined;
    if (!secret || !resolved) throw new InvalidTokenError();
    if (!SAFE_METHODS.has(request.method) && !this.sessions.csrfMatches(secret, request.headers[CSRF_HEADER])) {
      throw new CsrfTokenError();
    }
    return resolved.principal;
  }

  private authorizeTenant(context: ExecutionContext, request: ManagementRequest, tenantId: string): void {
    const tenantParam = request.params.tenant_id;
    if (tenantParam === undefined) throw new OperatorsOnlyError();
    if (tenantParam !== tenantId) throw new TenantNotFoundError();
    if (this.reflector.getAllAndOverride<boolean>(OPERATORS_ONLY, [context.getHandler(), context.getClass()])) {
      throw new OperatorsOnlyError();
    }
  }
}
