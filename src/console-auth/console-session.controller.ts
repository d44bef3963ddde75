import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiErrors, invalid } from '../common/api-errors.decorator';
import { ErrorBody } from '../common/error-body';
import { ADMIN_PREFIX } from '../common/routes';
import { AppConfig } from '../config/app-config';
import { RedemptionRateLimitGuard } from '../rate-limit/redemption-rate-limit.guard';
import { RequestBudgets } from '../rate-limit/request-budgets';
import { CsrfTokenError, InvalidAdminKeyError } from './console-auth.errors';
import { ConsoleSessionsService, OpenedSession } from './console-sessions.service';
import { PortalLinkPreviewResponse } from './dto/portal-link.response';
import { PortalLinkTokenRequest, RedeemPortalLinkRequest } from './dto/redeem-portal-link.request';
import { CurrentSessionResponse, SessionResponse } from './dto/session.response';
import { SignInRequest } from './dto/sign-in.request';
import { SameOriginJsonGuard } from './same-origin.guard';
import { TENANT_SESSION_PREFIX } from './secrets';
import { clearSessionCookie, CSRF_HEADER, readSessionCookie, setSessionCookie } from './session-cookie';

/**
 * Console sign-in and sign-out. A session is a cookie (HttpOnly, SameSite=Strict, Secure in production) that the
 * management API accepts in place of the ADMIN_API_KEY; the body never carries its secret.
 */
/** Reading and ending the session work with or without one (`{"session":null}`, 204): the cookie is optional. */
const SESSION_OPTIONAL: Array<Record<string, string[]>> = [{ console: [] }, {}];

@ApiTags('console')
@Controller(ADMIN_PREFIX)
export class ConsoleSessionController {
  constructor(
    private readonly sessions: ConsoleSessionsService,
    private readonly budgets: RequestBudgets,
    private readonly config: AppConfig,
  ) {}

  /**
   * A wrong key counts against its address's failures (ADMIN_KEY_FAILURES_PER_MINUTE), and past them is a 429; a
   * right one is never refused for others' failures, and counts against the operators' budget.
   */
  @Post('session')
  @HttpCode(200)
  @ApiOperation({ summary: 'Operator sign-in: trade the ADMIN_API_KEY for a session cookie', operationId: 'signIn', security: [] })
  @ApiOkResponse({ type: SessionResponse, description: 'Signed in; Set-Cookie carries the session' })
  @ApiErrors(invalid('admin_api_key: is required'), 413, 429)
  @ApiResponse({ status: 401, type: ErrorBody, description: 'Wrong key', example: { error: 'Invalid admin API key' } })
  async signIn(@Body() body: SignInRequest, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionResponse> {
    let opened: OpenedSession;
    try {
      opened = await this.sessions.signIn(body.admin_api_key);
    } catch (error) {
      if (error instanceof InvalidAdminKeyError) await this.budgets.countFailure('admin-key-failures', `ip:${request.ip}`);
      throw error;
    }
    await this.budgets.charge('operator', 'operator', reply);
    return this.open(opened, request, reply);
  }

  /**
   * Only from this service's own pages (SameOriginJsonGuard), then limited per client address (as many a minute as
   * token exchanges, in a budget of their own).
   */
  @Post('portal-links/redeem')
  @HttpCode(200)
  @UseGuards(SameOriginJsonGuard, RedemptionRateLimitGuard)
  @ApiOperation({ summary: 'Redeem a portal link (once) for a session scoped to its tenant', operationId: 'redeemPortalLink', security: [] })
  @ApiOkResponse({ type: SessionResponse, description: 'Signed in; Set-Cookie carries the session' })
  @ApiErrors(invalid('token: is required'), 413, 415, 429)
  @ApiResponse({ status: 401, type: ErrorBody, description: 'Unknown, used or expired link, or a disabled tenant', example: { error: 'Invalid portal link' } })
  @ApiResponse({
    status: 403,
    type: ErrorBody,
    description:
      'Not from this service\'s own pages (Origin another\'s, or absent without Sec-Fetch-Site: same-origin), or replacing the browser\'s session without its X-CSRF-Token: ' +
      'no cookie is set, the session held stays and the link unused',
    content: {
      'application/json': {
        examples: {
          origin: { value: { error: 'Cross-origin request refused', details: "Origin: must be this service's own (or Sec-Fetch-Site: same-origin without Origin)" } },
          csrf: { value: { error: 'Missing or invalid CSRF token' } },
        },
      },
    },
  })
  @ApiResponse({
    status: 409,
    type: ErrorBody,
    description: 'The browser holds an operator session or another tenant\'s portal session, and replace_session is not true: the link stays unused',
    example: {
      error: 'This browser already holds a console session',
      details: "replace_session: must be true, with the session's X-CSRF-Token, to end this browser's operator session and open this link's portal (the link is still unused)",
    },
  })
  async redeem(@Body() body: RedeemPortalLinkRequest, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionResponse> {
    const held = readSessionCookie(request);
    const opened = await this.sessions.redeemPortalLink(body.token, held ? { secret: held, csrf: request.headers[CSRF_HEADER] } : undefined, body.replace_session === true);
    return this.open(opened, request, reply);
  }

  /** Counted like a redemption (the same per-address budget): it answers for a token as redemption does. */
  @Post('portal-links/inspect')
  @HttpCode(200)
  @UseGuards(RedemptionRateLimitGuard)
  @ApiOperation({
    summary: 'Whose portal a link opens and which session of this browser it would end, without using the link up',
    operationId: 'inspectPortalLink',
    security: SESSION_OPTIONAL,
  })
  @ApiOkResponse({ type: PortalLinkPreviewResponse })
  @ApiErrors(invalid('token: is required'), 413, 429)
  @ApiResponse({ status: 401, type: ErrorBody, description: 'Unknown, used or expired link, or a disabled tenant', example: { error: 'Invalid portal link' } })
  inspect(@Body() body: PortalLinkTokenRequest, @Req() request: FastifyRequest): Promise<PortalLinkPreviewResponse> {
    return this.sessions.inspectPortalLink(body.token, readSessionCookie(request));
  }

  @Get('session')
  @ApiOperation({
    summary: 'The current console session with its CSRF token, or null when there is none',
    operationId: 'getSession',
    security: SESSION_OPTIONAL,
  })
  @ApiOkResponse({ type: CurrentSessionResponse })
  @ApiErrors(429)
  async current(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<CurrentSessionResponse> {
    const secret = readSessionCookie(request);
    const resolved = secret ? await this.sessions.resolve(secret) : undefined;
    if (resolved) {
      // Counted like any management call of that session (ManagementAuthGuard).
      const { principal } = resolved;
      await this.budgets.charge(principal.kind, principal.kind === 'tenant' ? `tenant:${principal.tenantId}` : 'operator', reply);
      return { session: resolved.session };
    }
    // A portal session's cookie outlives the session (ended, expired, its tenant disabled): say what it was.
    return secret?.startsWith(TENANT_SESSION_PREFIX) ? { session: null, ended: 'tenant' } : { session: null };
  }

  @Delete('session')
  @HttpCode(204)
  @ApiOperation({ summary: 'Sign out: the session ends everywhere and its cookie is cleared', operationId: 'signOut', security: SESSION_OPTIONAL })
  @ApiNoContentResponse({ description: 'Signed out (also when there was no session)' })
  @ApiResponse({ status: 403, type: ErrorBody, description: 'X-CSRF-Token missing or wrong', example: { error: 'Missing or invalid CSRF token' } })
  async signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const secret = readSessionCookie(request);
    if (secret && (await this.sessions.resolve(secret))) {
      if (!this.sessions.csrfMatches(secret, request.headers[CSRF_HEADER])) throw new CsrfTokenError();
      await this.sessions.end(secret);
    }
    clearSessionCookie(reply, this.config.production);
  }

  /**
   * Sets the new session's cookie. The browser can hold one: a session whose cookie this replaces could never be
   * used again, nor signed out of, so it ends now rather than lingering until it expires.
   */
  private async open(opened: OpenedSession, request: FastifyRequest, reply: FastifyReply): Promise<SessionResponse> {
    const replaced = readSessionCookie(request);
    if (replaced) await this.sessions.end(replaced);
    setSessionCookie(reply, opened.secret, new Date(opened.session.expires_at), this.config.production);
    return { session: opened.session };
  }
}
