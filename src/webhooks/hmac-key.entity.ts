import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A tenant's webhook signing key, stored only as AES-256-GCM ciphertext. */
@Entity('hmac_keys')
export class HmacKey {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'tenant_id' })
  tenantId: string;

  @Column('text', { name: 'key_ciphertext' })
  keyCiphertext: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;
}
