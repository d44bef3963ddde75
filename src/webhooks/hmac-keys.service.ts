import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { IdGenerator } from '../common/id-generator';
import { Clock } from '../common/clock';
import { TenantId } from '../common/tenant-id';
import { PageCursors } from '../common/page-cursors';
import { NewestFirstList, Page, PageQuery } from '../common/paged-list';
import { isUuid } from '../common/uuid';
import { ReadModel } from '../database/read-model';
import { AsOf } from '../database/read-scope';
import { ReadThroughCache } from '../database/read-through-cache';
import { HmacKey } from './hmac-key.entity';
import { HmacKeyDto } from './hmac-key.dto';
import { ACTIVE_KEYS, HmacKeysRepository, SealedKey } from './hmac-keys.repository';
import { KeyCipher } from './key-cipher';
import { HmacKeyLimitReachedError, HmacKeyNotFoundError } from './webhooks.errors';

/** The keys a tenant's deliveries are signed with: the newest active one signs the body, all active sign the header. */
/** Shared between requests (the read model keeps them), so read-only all the way down. */
export interface SigningKeys {
  readonly primary: string;
  readonly all: readonly string[];
}

/**
 * The most active keys a tenant may have. Every active key signs every call's `webhook-signature` header, so
 * without a bound a tenant (through a portal session, say) could make each of its calls, and its cached key set,
 * as large as it likes; rotation needs two or three.
 */
const MAX_ACTIVE_HMAC_KEYS = 10;
/** The most revoked keys of a tenant kept (the most recently made; the older go when a key is made), as for tokens. */
const KEPT_REVOKED_HMAC_KEYS = 100;
/** How long a revoked key is kept at all, in days since it was revoked. */
const REVOKED_KEYS_KEPT_DAYS = 30;
const LIST = 'hmac keys';

@Injectable()
export class HmacKeysService {
  private readonly logger = new Logger('HmacKeys');
  /**
   * Decrypted signing keys by tenant, so an execution neither reads nor decrypts them every time; kept exact
   * across replicas (ReadModel): a revoked key signs nothing after the revocation is acknowledged.
   */
  private readonly signing: ReadThroughCache<TenantId, SigningKeys | undefined>;
  private readonly pages: NewestFirstList;

  constructor(
    private readonly keys: HmacKeysRepository,
    private readonly cipher: KeyCipher,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    readModel: ReadModel,
    cursors: PageCursors,
  ) {
    this.pages = new NewestFirstList(cursors, LIST);
    this.signing = readModel.cache({
      name: 'hmac_keys',
      table: 'hmac_keys',
      // The tenant's entry, and each key's text (`whsec_` and 44 characters) in the list (docs/decisions.md).
      sizeOf: (keys) => 300 + 120 * (keys?.all.length ?? 0),
      query: { statement: ACTIVE_KEYS.statement, decode: (rows, tenantId) => this.unseal(tenantId, ACTIVE_KEYS.decode(rows, tenantId)) },
    });
  }

  /** Generates `whsec_<base64 of 32 random bytes>`: shown in this response only, kept encrypted. */
  async create(tenantId: TenantId): Promise<HmacKeyDto> {
    const id = this.ids.next();
    const key = `whsec_${randomBytes(32).toString('base64')}`;
    const entity = Object.assign(new HmacKey(), {
      id,
      tenantId,
      keyCiphertext: this.cipher.encrypt(key, id),
      createdAt: this.clock.now(),
      revokedAt: null,
    });
    if (!(await this.keys.insertWithinLimit(tenantId, entity, { active: MAX_ACTIVE_HMAC_KEYS, revoked: KEPT_REVOKED_HMAC_KEYS }))) {
      throw new HmacKeyLimitReachedError(MAX_ACTIVE_HMAC_KEYS);
    }
    const primaryId = (await this.keys.listActive(tenantId))[0]?.id;
    return { ...this.map(entity, primaryId), key };
  }

  /** A page of the tenant's keys, newest first (NewestFirstList: `limit`, `cursor`); `primary` is the newest active key's. */
  async list(tenantId: TenantId, query?: PageQuery): Promise<Page<HmacKeyDto>> {
    const { limit, after } = this.pages.open(tenantId, query);
    const [rows, active] = await Promise.all([this.keys.listPage(tenantId, limit + 1, after), this.keys.listActive(tenantId)]);
    const page = this.pages.close(tenantId, rows, limit);
    return { items: page.items.map((key) => this.map(key, active[0]?.id)), nextCursor: page.nextCursor };
  }

  /** Deletes every tenant's keys revoked more than REVOKED_KEYS_KEPT_DAYS ago; how many went. */
  prune(): Promise<number> {
    return this.keys.deleteRevokedBefore(new Date(this.clock.now().getTime() - REVOKED_KEYS_KEPT_DAYS * 86_400_000));
  }

  async revoke(tenantId: TenantId, id: string): Promise<void> {
    const existing = isUuid(id) ? await this.keys.findByTenantAndId(tenantId, id) : null;
    if (!existing) throw new HmacKeyNotFoundError();
    await this.keys.revoke(tenantId, id, this.clock.now());
  }

  /**
   * The tenant's active keys in plaintext, newest first, or undefined when it has none it can read. A key that
   * no longer decrypts (stored under a previous ENCRYPTION_KEY) is skipped and reported, not fatal.
   */
  signingKeys(tenantId: TenantId, asOf?: AsOf): Promise<SigningKeys | undefined> {
    return this.signing.get(tenantId, asOf);
  }

  private unseal(tenantId: string, sealed: SealedKey[]): SigningKeys | undefined {
    const all: string[] = [];
    for (const key of sealed) {
      try {
        all.push(this.cipher.decrypt(key.keyCiphertext, key.id));
      } catch {
        this.logger.error(`HMAC key ${key.id} of tenant ${tenantId} cannot be decrypted (ENCRYPTION_KEY changed?): skipped`);
      }
    }
    return all.length > 0 ? { primary: all[0], all } : undefined;
  }

  private map(key: HmacKey, primaryId: string | undefined): HmacKeyDto {
    return {
      id: key.id,
      primary: key.id === primaryId,
      created_at: key.createdAt.toISOString(),
      revoked_at: key.revokedAt?.toISOString() ?? null,
    };
  }
}
