import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A long-lived credential of a tenant. Only the SHA-256 of its value is kept. */
@Entity('api_tokens')
export class ApiToken {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'tenant_id' })
  tenantId: string;

  @Column('varchar', { length: 200 })
  name: string;

  /** The first characters of the token (`agw_` and a few more), so people can tell tokens apart. */
  @Column('varchar', { length: 16 })
  prefix: string;

  @Column('char', { length: 64, name: 'token_hash' })
  tokenHash: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt: Date | null;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;
}
