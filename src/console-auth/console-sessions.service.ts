import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from '../common/clock';
import { isSchemaMissing } from '../database/database-errors';
import { IdGenerator } from '../common/id-generator';
import { asTenantId, TenantId } from '../common/tenant-id';
import { AppConfig } from '../config/app-config';
import { ConsoleSession } from './console-session.entity';
import { ConsoleSessionHeldError, CsrfTokenError, InvalidAdminKeyError, InvalidPortalLinkError } from './console-auth.errors';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { SessionDto } from './dto/session.response';
import { PortalLinkDto, PortalLinkPreviewResponse } from './dto/portal-link.response';
import { ManagementPrincipal } from './management-principal';
import { PortalLink } from './portal-link.entity';
import { csrfTokenFor, newSecret, PORTAL_TOKEN_PREFIX, sameText, sha256Hex, TENANT_SESSION_PREFIX } from './secrets';

const PRUNE_EVERY_MS = 3_600_000;
const PORTAL_PATH = '/console/portal';

/** A session just opened: the secret goes into the cookie and nowhere else. */
export interface OpenedSession {
  secret: string;
  session: SessionDto;
}

/**
 * Console sessions: operators sign in with the ADMIN_API_KEY, a tenant's developers through a single-use portal
 * link. Sessions live in the database (any replica can check them), hold only hashes of their secrets, expire
 * after CONSOLE_SESSION_TTL_MINUTES, and end at sign-out, when their tenant is disabled, or (operators) when
 * the ADMIN_API_KEY changes.
 */
@Injectable()
export class ConsoleSessionsService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ConsoleSessions');
  private readonly adminKeyHash: string;
  private pruneTimer?: NodeJS.Timeout;
  private pruning: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly sessions: ConsoleSessionsRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {
    this.adminKeyHash = sha256Hex(config.adminApiKey);
  }

  isAdminKey(candidate: string): boolean {
    return sameText(candidate, this.config.adminApiKey);
  }

  async signIn(adminApiKey: string): Promise<OpenedSession> {
    if (!this.isAdminKey(adminApiKey)) throw new InvalidAdminKeyError();
    const { secret, session } = this.newSession('operator');
    session.adminKeyHash = this.adminKeyHash;
    await this.sessions.insert(session);
    return { secret, session: this.describe(session, secret) };
  }

  /**
   * A single-use link to a session scoped to `tenantId`, valid for PORTAL_LINK_TTL_SECONDS, on PUBLIC_URL
   * (required in production); without it, on `fallbackOrigin`, where the caller reached this service.
   */
  async createPortalLink(tenantId: TenantId, fallbackOrigin: string): Promise<PortalLinkDto> {
    const { secret: token, hash } = newSecret(PORTAL_TOKEN_PREFIX);
    const now = this.clock.now();
    const link = Object.assign(new PortalLink(), {
      id: this.ids.next(),
      tokenHash: hash,
      tenantId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.config.console.portalLinkTtlMs),
      redeemedAt: null,
    });
    await this.sessions.insertPortalLink(tenantId, link);
    const base = this.config.console.publicUrl ?? fallbackOrigin;
    return { url: `${base}${PORTAL_PATH}#token=${token}`, token, tenant_id: tenantId, expires_at: link.expiresAt.toISOString() };
  }

  /**
   * Whose portal `token` opens, and which session of this browser (`heldSecret`, its cookie) opening it would end,
   * without using the link up. Invalid links get the one answer redemption gives.
   */
  async inspectPortalLink(token: string, heldSecret: string | undefined): Promise<PortalLinkPreviewResponse> {
    const link = await this.sessions.findUsablePortalLink(sha256Hex(token), this.clock.now());
    if (!link) throw new InvalidPortalLinkError();
    const held = heldSecret ? await this.resolve(heldSecret) : undefined;
    return {
      portal_link: { tenant_id: link.tenantId, tenant_name: link.tenantName, expires_at: link.expiresAt.toISOString() },
      current_session: held ? { kind: held.session.kind, tenant_id: held.session.tenant_id, tenant_name: held.tenantName } : null,
    };
  }

  /**
   * Trades a portal link for a tenant session. A browser that holds a session (`held`: its cookie's secret and the
   * X-CSRF-Token sent) has it replaced only with that session's CSRF token, which only the console's own page
   * holds: otherwise CsrfTokenError, the session kept and the link unused. And an operator's session, or a portal
   * session of another tenant, only with `replace` too: otherwise ConsoleSessionHeldError, the link unused, so that
   * a link someone sent cannot switch a signed-in person to their tenant unasked (login CSRF); the console asks
   * first. A portal session of the link's own tenant needs no `replace`: nothing changes hands.
   */
  async redeemPortalLink(token: string, held?: { secret: string; csrf: unknown }, replace = false): Promise<OpenedSession> {
    const holding = held && (await this.resolve(held.secret));
    if (held && holding) {
      const link = await this.sessions.findUsablePortalLink(sha256Hex(token), this.clock.now());
      if (!link) throw new InvalidPortalLinkError();
      const { principal } = holding;
      if (!replace && (principal.kind === 'operator' || principal.tenantId !== link.tenantId)) throw new ConsoleSessionHeldError(principal.kind);
      if (!this.csrfMatches(held.secret, held.csrf)) throw new CsrfTokenError();
    }
    const { secret, session } = this.newSession('tenant');
    const opened = await this.sessions.redeemPortalLink(sha256Hex(token), this.clock.now(), session);
    if (!opened) throw new InvalidPortalLinkError();
    return { secret, session: this.describe(opened, secret) };
  }

  /** Who a session cookie belongs to, or undefined when it is unknown, expired or has ended. */
  async resolve(secret: string): Promise<{ principal: ManagementPrincipal; session: SessionDto; tenantName: string | null } | undefined> {
    const found = await this.sessions.findBySecretHash(sha256Hex(secret));
    if (!found) return undefined;
    const { session, tenantStatus, tenantName } = found;
    const standing =
      session.expiresAt.getTime() > this.clock.now().getTime() &&
      (session.kind === 'operator' ? session.adminKeyHash === this.adminKeyHash : tenantStatus === 'active');
    if (!standing) {
      await this.sessions.deleteById(session.id);
      return undefined;
    }
    const principal: ManagementPrincipal =
      session.kind === 'operator' ? { kind: 'operator' } : { kind: 'tenant', tenantId: asTenantId(session.tenantId as string) };
    return { principal, session: this.describe(session, secret), tenantName };
  }

  csrfMatches(secret: string, sent: unknown): boolean {
    return typeof sent === 'string' && sameText(sent, csrfTokenFor(secret));
  }

  /** Sign-out: the session cannot be used again, from any replica. */
  async end(secret: string): Promise<void> {
    const found = await this.sessions.findBySecretHash(sha256Hex(secret));
    if (found) await this.sessions.deleteById(found.session.id);
  }

  /** Ends every session of a tenant (it was disabled). */
  async endTenantSessions(tenantId: TenantId): Promise<void> {
    await this.sessions.deleteByTenant(tenantId);
  }

  /** Deletes expired sessions and portal links; returns how many. */
  prune(): Promise<number> {
    return this.sessions.deleteExpired(this.clock.now());
  }

  onApplicationBootstrap(): void {
    const run = () => {
      // With migrations pending there is nothing to prune, and the start-up has said so already (Migrations).
      this.pruning = this.prune().catch((error: unknown) => {
        if (!isSchemaMissing(error)) this.logger.warn({ err: error }, 'pruning expired console sessions failed');
      });
    };
    run();
    this.pruneTimer = setInterval(run, PRUNE_EVERY_MS).unref();
  }

  /** Before the database closes: no new pruning, and the one under way finishes. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.pruneTimer);
    await this.pruning;
  }

  private newSession(kind: ConsoleSession['kind']): { secret: string; session: ConsoleSession } {
    const { secret, hash } = newSecret(kind === 'tenant' ? TENANT_SESSION_PREFIX : '');
    const now = this.clock.now();
    const session = Object.assign(new ConsoleSession(), {
      id: this.ids.next(),
      secretHash: hash,
      kind,
      tenantId: null,
      adminKeyHash: null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.config.console.sessionTtlMs),
    });
    return { secret, session };
  }

  private describe(session: ConsoleSession, secret: string): SessionDto {
    return {
      kind: session.kind,
      tenant_id: session.tenantId,
      expires_at: session.expiresAt.toISOString(),
      csrf_token: csrfTokenFor(secret),
    };
  }
}
