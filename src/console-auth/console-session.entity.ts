import { Column, Entity, PrimaryColumn } from 'typeorm';

export type SessionKind = 'operator' | 'tenant';

/** A signed-in person in the console: an operator, or a tenant's developer (through a portal link). */
@Entity('console_sessions')
export class ConsoleSession {
  @PrimaryColumn('uuid')
  id: string;

  /** SHA-256 of the cookie's value; the value itself is never stored. */
  @Column('char', { length: 64, name: 'secret_hash' })
  secretHash: string;

  @Column('varchar', { length: 16 })
  kind: SessionKind;

  @Column('uuid', { name: 'tenant_id', nullable: true })
  tenantId: string | null;

  /** Operator sessions: SHA-256 of the ADMIN_API_KEY that opened them, so changing the key ends them. */
  @Column('char', { length: 64, name: 'admin_key_hash', nullable: true })
  adminKeyHash: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;
}
