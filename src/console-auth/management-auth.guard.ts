import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { challenged, MANAGEMENT_REALM } from '../common/bearer-challenge';
import { bearerCredentials } from '../common/bearer-credentials';
import { RequestBudgets } from '../rate-limit/request-budgets';
import { TenantNotFoundError } from '../tenancy/tenancy.errors';
import { ADMIN_KEY_PROBLEMS, adminKeyProblem } from './admin-key-problem';
import { CsrfTokenError, OperatorsOnlyError } from './console-auth.errors';
import { ConsoleSessionsService } from './console-sessions.service';
import { ManagementPrincipal } from './management-principal';
import { OPERATORS_ONLY } from './operators-only.decorator';
import { CSRF_HEADER, readSessionCookie } from './session-cookie';
import { trace } from '@opentelemetry/api';
import { ATTRIBUTE } from '../tracing/span-attributes';
import { Tracing } from '../tracing/tracing';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

type ManagementRequest = FastifyRequest & { management?: ManagementPrincipal; params: Record<string, string | undefined> };

/**
 * Who may call the management API: `Authorization: Bearer <ADMIN_API_KEY>` (compared in constant time), or a
 * console session cookie. With a cookie, state-changing methods also need the session's CSRF token in
 * `X-CSRF-Token` (the cookie is SameSite=Strict too). A tenant session may use only routes under its own
 * `/tenants/{tenant_id}` (another tenant is `Tenant not found`, as if it did not exist), and not those marked
 * `@OperatorsOnly()`.
 *
 * Every request let in is counted (RequestBudgets): a tenant session's against its tenant's hourly budget, the
 * very counter of its bearer requests, so the console is no way around the limit (and the registration tests a
 * session's action changes send stay within it); an operator's against the operators' budget. A wrong admin key
 * is counted against its client address's failures; past their limit it is a 429 rather than a 401. A 401 carries
 * RFC 6750's challenge, as the gateway API's does: with the header's credential refused, a description of which
 * mistake it was (admin-key-problem.ts: a tenant's token, a wrong key, a malformed header).
 */
@Injectable()
export class ManagementAuthGuard implements CanActivate {
  constructor(
    private readonly sessions: ConsoleSessionsService,
    private readonly reflector: Reflector,
    private readonly budgets: RequestBudgets,
    private readonly tracing: Tracing,
  ) {}

  /** In a span "authenticate" (when tracing records), naming how: the admin key, or a console session. */
  canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<ManagementRequest>();
    const method = request.headers.authorization !== undefined ? 'admin_key' : 'console_session';
    // request.trace only when recording: reading it makes the request's trace context (RequestTrace).
    return this.tracing.span(this.tracing.recording ? request.trace : undefined, 'authenticate', { [ATTRIBUTE.authMethod]: method }, async ({ span }) => {
      const principal = await this.authenticate(request);
      request.management = principal;
      if (principal.kind === 'tenant') {
        span?.setAttribute(ATTRIBUTE.tenantId, principal.tenantId);
        if (span) trace.getSpan(request.trace)?.setAttribute(ATTRIBUTE.tenantId, principal.tenantId);
      }
      await this.budgets.charge(principal.kind, principal.kind === 'tenant' ? `tenant:${principal.tenantId}` : 'operator', http.getResponse<FastifyReply>());
      if (principal.kind === 'tenant') this.authorizeTenant(context, request, principal.tenantId);
      return true;
    });
  }

  private async authenticate(request: ManagementRequest): Promise<ManagementPrincipal> {
    const header = request.headers.authorization;
    if (header !== undefined) {
      // Explicit credentials win: a wrong key is refused even when a session cookie comes along.
      const key = bearerCredentials(header);
      if (!key || !this.sessions.isAdminKey(key)) {
        // Only a guess counts: a header that carries no key at all cannot find the right one.
        if (key) await this.budgets.countFailure('admin-key-failures', `ip:${request.ip}`);
        throw challenged(MANAGEMENT_REALM, ADMIN_KEY_PROBLEMS[adminKeyProblem(header)]);
      }
      return { kind: 'operator' };
    }
    const secret = readSessionCookie(request);
    const resolved = secret ? await this.sessions.resolve(secret) : undefined;
    if (!secret || !resolved) throw challenged(MANAGEMENT_REALM);
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
