import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A single-use, short-lived link that opens a console session scoped to one tenant. */
@Entity('portal_links')
export class PortalLink {
  @PrimaryColumn('uuid')
  id: string;

  /** SHA-256 of the link's token; the token itself is never stored. */
  @Column('char', { length: 64, name: 'token_hash' })
  tokenHash: string;

  @Column('uuid', { name: 'tenant_id' })
  tenantId: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('timestamptz', { name: 'redeemed_at', nullable: true })
  redeemedAt: Date | null;
}
