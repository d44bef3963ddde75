import { Injectable } from '@nestjs/common';
import { IdGenerator } from '../common/id-generator';
import { Clock } from '../common/clock';
import { InvalidRequestError } from '../common/common.errors';
import { PageCursors } from '../common/page-cursors';
import { NewestFirstList, Page, PageQuery } from '../common/paged-list';
import { asTenantId, TenantId } from '../common/tenant-id';
import { isUuid } from '../common/uuid';
import { ReadModel } from '../database/read-model';
import { AsOf, asOfCall } from '../database/read-scope';
import { ReadThroughCache } from '../database/read-through-cache';
import { TenancyService } from '../tenancy/tenancy.service';
import { ApiToken } from './api-token.entity';
import { ApiTokenDto } from './api-token.dto';
import { ApiTokenLimitReachedError, ApiTokenNotFoundError, InvalidApiTokenError } from './auth.errors';
import { ApiTokensRepository, ApiTokenWithTenantStatus, TOKEN_STANDING, TokenStanding } from './api-tokens.repository';
import { Principal } from './principal';
import { generateApiToken, hashApiToken, sameDigest } from './token-credentials';

/** What a token's standing costs the read model's memory, key and bookkeeping included (measured: docs/decisions.md). */
const STANDING_BYTES = 700;
/** The most usable (neither revoked nor expired) API tokens a tenant may have: its rows and memory stay bounded. */
const MAX_USABLE_API_TOKENS = 100;
/**
 * The most revoked or expired tokens of a tenant kept (the most recently made; the older go when a token is made),
 * and how long one is kept at all (days since it was revoked or expired): their history is listed, but a tenant
 * that makes and revokes in a loop must not pile up rows for ever.
 */
const KEPT_DEAD_API_TOKENS = 100;
const DEAD_CREDENTIALS_KEPT_DAYS = 30;
const LIST = 'api tokens';

/** API tokens: issued and revoked by the admin panel, checked at the token exchange and on every bearer call. */
@Injectable()
export class ApiTokensService {
  /** Every token's standing, for the bearer check, served from memory and kept exact across replicas (ReadModel). */
  private readonly standings: ReadThroughCache<string, TokenStanding | null>;
  private readonly pages: NewestFirstList;

  constructor(
    private readonly tokens: ApiTokensRepository,
    private readonly tenancy: TenancyService,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    readModel: ReadModel,
    cursors: PageCursors,
  ) {
    this.pages = new NewestFirstList(cursors, LIST);
    this.standings = readModel.cache({ name: 'api_tokens', table: 'api_tokens', sizeOf: () => STANDING_BYTES, query: TOKEN_STANDING });
  }

  /**
   * Issues a token; its plaintext is in this response and nowhere else, ever. `expiresAt`, when given, must be
   * a date-time in the future (an RFC 3339 text or a Date).
   */
  async create(tenantId: TenantId, name: string, expiresAt: string | Date | null = null): Promise<ApiTokenDto> {
    const expiry = this.expiryOf(expiresAt);
    const { token, hash, prefix } = generateApiToken();
    const now = this.clock.now();
    const entity = Object.assign(new ApiToken(), {
      id: this.ids.next(),
      tenantId,
      name,
      prefix,
      tokenHash: hash,
      createdAt: now,
      expiresAt: expiry,
      lastUsedAt: null,
      revokedAt: null,
    });
    const limits = { usable: MAX_USABLE_API_TOKENS, dead: KEPT_DEAD_API_TOKENS };
    if (!(await this.tokens.insertWithinLimit(tenantId, entity, limits, now))) throw new ApiTokenLimitReachedError(MAX_USABLE_API_TOKENS);
    return { ...this.map(entity), token };
  }

  /** A page of the tenant's tokens, newest first (NewestFirstList: `limit`, `cursor`). */
  async list(tenantId: TenantId, query?: PageQuery): Promise<Page<ApiTokenDto>> {
    const { limit, after } = this.pages.open(tenantId, query);
    const page = this.pages.close(tenantId, await this.tokens.listPage(tenantId, limit + 1, after), limit);
    return { items: page.items.map((token) => this.map(token)), nextCursor: page.nextCursor };
  }

  /** Deletes every tenant's tokens revoked or expired more than DEAD_CREDENTIALS_KEPT_DAYS ago; how many went. */
  prune(): Promise<number> {
    return this.tokens.deleteDeadBefore(new Date(this.clock.now().getTime() - DEAD_CREDENTIALS_KEPT_DAYS * 86_400_000));
  }

  /** Revokes the token: the bearer tokens minted from it stop working at the next request, on every replica. */
  async revoke(tenantId: TenantId, id: string): Promise<void> {
    const existing = isUuid(id) ? await this.tokens.findByTenantAndId(tenantId, id) : null;
    if (!existing) throw new ApiTokenNotFoundError();
    await this.tokens.revoke(tenantId, id, this.clock.now());
  }

  /** Checks a plaintext API token; unknown, revoked, expired and disabled-tenant tokens look the same. */
  async verify(plaintext: string): Promise<Principal> {
    const hash = hashApiToken(plaintext);
    const found = await this.tokens.findByHashWithTenantStatus(hash);
    if (!found || !sameDigest(found.token.tokenHash, hash) || !this.stands(found)) throw new InvalidApiTokenError();
    await this.tokens.touchLastUsed(found.token.id, this.clock.now());
    return { tenantId: asTenantId(found.token.tenantId), apiTokenId: found.token.id };
  }

  /** Whether a bearer token minted from `apiTokenId` for `tenantId` may still be used (as of `asOf`, see AsOf). */
  async isUsable(apiTokenId: string, tenantId: string, asOf?: AsOf): Promise<boolean> {
    if (!isUuid(apiTokenId)) return false;
    const freshAsOf = asOfCall(asOf);
    const [standing, tenantActive] = await Promise.all([this.standings.get(apiTokenId, freshAsOf), this.tenancy.isActive(tenantId, freshAsOf)]);
    return standing !== null && standing.tenantId === tenantId && tenantActive && this.isCurrent(standing);
  }

  private stands({ token, tenantStatus }: ApiTokenWithTenantStatus): boolean {
    return tenantStatus === 'active' && this.isCurrent(token);
  }

  /** Neither revoked nor expired. */
  private isCurrent(token: { revokedAt: Date | null; expiresAt: Date | null }): boolean {
    if (token.revokedAt !== null) return false;
    return token.expiresAt === null || token.expiresAt.getTime() > this.clock.now().getTime();
  }

  private expiryOf(expiresAt: string | Date | null): Date | null {
    if (expiresAt === null) return null;
    const expiry = typeof expiresAt === 'string' ? new Date(expiresAt) : expiresAt;
    // Date reads February 30 as March 2: a day the calendar does not have is refused, not moved.
    if (Number.isNaN(expiry.getTime()) || (typeof expiresAt === 'string' && !isCalendarDay(expiresAt))) {
      throw new InvalidRequestError('expires_at: must be an ISO 8601 date-time');
    }
    if (expiry.getTime() <= this.clock.now().getTime()) throw new InvalidRequestError('expires_at: must be in the future');
    return expiry;
  }

  private map(token: ApiToken): ApiTokenDto {
    return {
      id: token.id,
      name: token.name,
      prefix: token.prefix,
      created_at: token.createdAt.toISOString(),
      expires_at: token.expiresAt?.toISOString() ?? null,
      last_used_at: token.lastUsedAt?.toISOString() ?? null,
      revoked_at: token.revokedAt?.toISOString() ?? null,
    };
  }
}

/** Whether the `YYYY-MM-DD` a date-time starts with is a day of the calendar (no February 30, no April 31). */
function isCalendarDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
