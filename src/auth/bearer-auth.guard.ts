import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import passport from 'passport';
import type { Logger } from 'pino';
import { InvalidTokenError } from '../common/common.errors';
import { DomainError } from '../common/domain.error';
import { JwtStrategy } from './jwt.strategy';
import { Principal } from './principal';

/**
 * Runs this application's own passport-jwt strategy on the request. `AuthGuard('jwt')` would look the strategy
 * up by name in passport's process-wide registry, where the last Nest application to boot wins: an admin
 * backend or a test that composes a second application would have its tokens checked with the other's secret.
 * Every way a bearer token can fail is the same 401 `Invalid token`; a lost database stays a 503.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(private readonly strategy: JwtStrategy) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { user?: Principal }>();
    return new Promise((resolve, reject) => {
      // passport decorates the strategy object per request, so each request gets its own derived instance.
      const authenticate = passport.authenticate(Object.create(this.strategy), { session: false }, (error: unknown, user: Principal | false) => {
        if (error && !(error instanceof DomainError)) return reject(error);
        if (error || !user) return reject(new InvalidTokenError());
        request.user = user;
        // Every later log line of this request, "request completed" included, names the tenant. The request's
        // logger is its own child already (shared with the reply): binding on it is cheaper than another child.
        (request.log as Logger).setBindings({ tenantId: user.tenantId });
        resolve(true);
      });
      authenticate(request, http.getResponse<FastifyReply>(), (error: unknown) => reject(error ?? new InvalidTokenError()));
    });
  }
}
