import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import passport from 'passport';
import type { Logger } from 'pino';
import { challenged, GATEWAY_REALM } from '../common/bearer-challenge';
import { bearerCredentials } from '../common/bearer-credentials';
import { InvalidTokenError } from '../common/common.errors';
import { DomainError } from '../common/domain.error';
import { sameText } from '../common/same-text';
import { AppConfig } from '../config/app-config';
import { RequestBudgets } from '../rate-limit/request-budgets';
import { BEARER_PROBLEMS, BearerProblem, headerProblem, verificationProblem } from './bearer-problem';
import { UnverifiedTokenError } from './auth.errors';
import { trace } from '@opentelemetry/api';
import { ATTRIBUTE } from '../tracing/span-attributes';
import { Tracing } from '../tracing/tracing';
import { bearerToken, JwtStrategy } from './jwt.strategy';
import { Principal } from './principal';

/**
 * Runs this application's own passport-jwt strategy on the request. `AuthGuard('jwt')` would look the strategy
 * up by name in passport's process-wide registry, where the last Nest application to boot wins: an admin
 * backend or a test that composes a second application would have its tokens checked with the other's secret.
 * Every way a bearer token can fail is the same 401 `Invalid token`, with the challenge RFC 6750 (section 3) asks
 * of a 401: `WWW-Authenticate: Bearer realm="action-gateway"`, plus, when a token was sent, `error="invalid_token"`
 * and an `error_description` saying which mistake it was (bearer-problem.ts; MCP clients read it too). A lost
 * database stays a 503. A token passport-jwt verified before is not verified again (JwtStrategy.verifiedClaims,
 * bounded): only its expiry, and its API token's and tenant's standing.
 *
 * The one description that compares what was sent with a secret: a token that is no JWT at all is told when it is
 * the admin key, sent to the wrong API. That comparison would let a client guess the admin key here with no limit,
 * so each one counts against the client address's admin-key failures, as a wrong key on the management API does;
 * past them, the token is only "not a whole JWT".
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly strategy: JwtStrategy,
    private readonly tracing: Tracing,
    private readonly budgets: RequestBudgets,
    private readonly config: AppConfig,
  ) {}

  /** In a span "authenticate" (when tracing records); the tenant is named on it and on the request's span. */
  canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { user?: Principal }>();
    // request.trace only when recording: reading it makes the request's trace context (RequestTrace).
    return this.tracing.span(this.tracing.recording ? request.trace : undefined, 'authenticate', { [ATTRIBUTE.authMethod]: 'bearer' }, async ({ span }) => {
      const user = await this.principalOf(request, http.getResponse<FastifyReply>());
      request.user = user;
      // Every later log line of this request, "request completed" included, names the tenant. The request's
      // logger is its own child already (shared with the reply): binding on it is cheaper than another child.
      (request.log as Logger).setBindings({ tenantId: user.tenantId });
      span?.setAttribute(ATTRIBUTE.tenantId, user.tenantId);
      if (span) trace.getSpan(request.trace)?.setAttribute(ATTRIBUTE.tenantId, user.tenantId);
      return true;
    });
  }

  private principalOf(request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
    const malformed = headerProblem(request.headers.authorization);
    // A header that cannot hold a verifiable token is refused as it is, without running passport on it.
    if (malformed === 'not_jwt') return this.refuseNotJwt(request);
    if (malformed) return Promise.reject(challenge(malformed));
    const token = bearerToken(request);
    if (token === null) return Promise.reject(challenge(undefined));
    const claims = this.strategy.verifiedClaims(token);
    // A token verified before: only whether its API token and tenant still stand is asked again.
    const principal = claims ? this.strategy.principalOf(claims, request.arrivedAt) : this.authenticate(request, reply);
    return principal.catch((error: unknown) => {
      if (!(error instanceof DomainError)) throw error;
      // passport-jwt's failure (the token did not verify), or the strategy's (it did, but no longer stands).
      throw challenge(error instanceof UnverifiedTokenError ? verificationProblem(error.failure) : 'no_longer_valid');
    });
  }

  /** A token that is no JWT: the admin key is told so, while the client address has admin-key guesses left. */
  private async refuseNotJwt(request: FastifyRequest): Promise<never> {
    const token = bearerCredentials(request.headers.authorization) ?? '';
    const { exceeded } = await this.budgets.count('admin-key-failures', `ip:${request.ip}`);
    throw challenge(!exceeded && sameText(token, this.config.adminApiKey) ? 'admin_key' : 'not_jwt');
  }

  private authenticate(request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
    return new Promise((resolve, reject) => {
      // passport decorates the strategy object per request, so each request gets its own derived instance.
      const authenticate = passport.authenticate(Object.create(this.strategy), { session: false }, (error: unknown, user: Principal | false, failure: unknown) => {
        if (error) return reject(error);
        if (!user) return reject(new UnverifiedTokenError(failure));
        resolve(user);
      });
      authenticate(request, reply, (error: unknown) => reject(error ?? new UnverifiedTokenError(undefined)));
    });
  }
}

/** The contract's 401 with RFC 6750's challenge: no error code when no credentials came (section 3.1). */
function challenge(problem: BearerProblem | undefined): InvalidTokenError {
  return challenged(GATEWAY_REALM, problem === undefined ? undefined : BEARER_PROBLEMS[problem]);
}
