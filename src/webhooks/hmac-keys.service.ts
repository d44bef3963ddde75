import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { IdGenerator } from '../common/id-generator';
import { Clock } from '../common/clock';
import { TenantId } from '../common/tenant-id';
import { isUuid } from '../common/uuid';
import { HmacKey } from './hmac-key.entity';
import { HmacKeyDto } from './hmac-key.dto';
import { HmacKeysRepository } from './hmac-keys.repository';
import { KeyCipher } from './key-cipher';
import { HmacKeyNotFoundError } from './webhooks.errors';

/** The keys a tenant's deliveries are signed with: the newest active one signs the body, all active sign the header. */
export interface SigningKeys {
  primary: string;
  all: string[];
}

@Injectable()
export class HmacKeysService {
  constructor(
    private readonly keys: HmacKeysRepository,
    private readonly cipher: KeyCipher,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

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
    await this.keys.insert(entity);
    const primaryId = (await this.keys.listActive(tenantId))[0]?.id;
    return { ...this.map(entity, primaryId), key };
  }

  async list(tenantId: TenantId): Promise<HmacKeyDto[]> {
    const keys = await this.keys.listByTenant(tenantId);
    const primaryId = keys.find((key) => key.revokedAt === null)?.id;
    return keys.map((key) => this.map(key, primaryId));
  }

  async revoke(tenantId: TenantId, id: string): Promise<void> {
    const existing = isUuid(id) ? await this.keys.findByTenantAndId(tenantId, id) : null;
    if (!existing) throw new HmacKeyNotFoundError();
    await this.keys.revoke(tenantId, id, this.clock.now());
  }

  /** The tenant's active keys in plaintext, or undefined when it has none. */
  async signingKeys(tenantId: TenantId): Promise<SigningKeys | undefined> {
    const active = await this.keys.listActive(tenantId);
    if (active.length === 0) return undefined;
    const all = active.map((key) => this.cipher.decrypt(key.keyCiphertext, key.id));
    return { primary: all[0], all };
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
