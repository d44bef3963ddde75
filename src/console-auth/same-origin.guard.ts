import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { UnsupportedMediaTypeError } from '../common/common.errors';
import { isJsonMediaType } from '../common/json-body-parser';
import { isOwnOrigin } from '../common/request-origin';
import { AppConfig } from '../config/app-config';
import { CrossOriginRequestError } from './console-auth.errors';

/**
 * For portal-link redemption, a sign-in: only this service's own pages may make one. A page on another origin of
 * the same site (another port of the host, a sibling subdomain) sends the SameSite=Strict cookie along, so without
 * this it could end a signed-in person's session and sign the browser into its own tenant (login CSRF). Needed: an
 * `Origin` that is this service's own (request-origin.ts), or, with none, `Sec-Fetch-Site: same-origin`; and
 * `Content-Type: application/json`, which such a page cannot send without the browser asking first (a CORS
 * preflight, which nothing here answers). Else 403 or 415, before the body is read or the link looked up.
 */
@Injectable()
export class SameOriginJsonGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const { origin } = request.headers;
    const sameOrigin = origin === undefined ? request.headers['sec-fetch-site'] === 'same-origin' : isOwnOrigin(origin, request, this.config.console.publicUrl);
    if (!sameOrigin) throw new CrossOriginRequestError();
    if (!isJsonMediaType(request.headers['content-type'])) throw new UnsupportedMediaTypeError();
    return true;
  }
}
