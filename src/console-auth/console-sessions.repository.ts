import { Injectable } from '@nestjs/common';
import { LessThan } from 'typeorm';
import { TenantId } from '../common/tenant-id';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { DatabasePool } from '../database/database-pool';
import { globalStatement } from '../database/statement';
import { TenantStatus } from '../tenancy/tenant.entity';
import { TenantScopedRepository } from '../tenancy/tenant-scoped-repository';
import { TenantTables } from '../tenancy/tenant-tables';
import { ConsoleSession } from './console-session.entity';
import { PortalLink } from './portal-link.entity';

/** A session with the standing and name of its tenant (null for operator sessions). */
interface SessionWithTenant {
  session: ConsoleSession;
  tenantStatus: TenantStatus | null;
  tenantName: string | null;
}

/** An unused, unexpired portal link of an active tenant, as it would open: whose portal, until when. */
interface UsablePortalLink {
  tenantId: string;
  tenantName: string;
  expiresAt: Date;
}

interface SessionRow {
  id: string;
  secret_hash: string;
  kind: ConsoleSession['kind'];
  tenant_id: string | null;
  admin_key_hash: string | null;
  created_at: Date;
  expires_at: Date;
  tenant_status: TenantStatus | null;
  tenant_name: string | null;
}

const SESSION_BY_HASH_SQL = globalStatement<[secretHash: string], SessionRow>(
  'a cookie presents the session secret; the session names its tenant (none for an operator)',
  `
  SELECT s.id, s.secret_hash, s.kind, s.tenant_id, s.admin_key_hash, s.created_at, s.expires_at, t.status AS tenant_status, t.name AS tenant_name
  FROM console_sessions s LEFT JOIN tenants t ON t.id = s.tenant_id
  WHERE s.secret_hash = $1`,
);

// Reads a link without using it up: a browser that holds a session asks before redeeming (login CSRF).
const USABLE_LINK_SQL = globalStatement<[tokenHash: string, now: Date], { tenant_id: string; tenant_name: string; expires_at: Date }>(
  'a portal link is presented by its secret; the link names its tenant',
  `
  SELECT p.tenant_id, t.name AS tenant_name, p.expires_at
  FROM portal_links p JOIN tenants t ON t.id = p.tenant_id
  WHERE p.token_hash = $1 AND p.redeemed_at IS NULL AND p.expires_at > $2 AND t.status = 'active'`,
);

// Burns the link whatever its tenant's standing, so a link can never be tried twice.
const REDEEM_SQL = globalStatement<[tokenHash: string, now: Date], { tenant_id: string; tenant_status: TenantStatus }>(
  'a portal link is presented by its secret; the link names its tenant',
  `
  UPDATE portal_links p SET redeemed_at = $2
  FROM tenants t
  WHERE t.id = p.tenant_id AND p.token_hash = $1 AND p.redeemed_at IS NULL AND p.expires_at > $2
  RETURNING p.tenant_id, t.status AS tenant_status`,
);

@Injectable()
export class ConsoleSessionsRepository {
  private readonly sessions: TenantScopedRepository<ConsoleSession>;
  private readonly links: TenantScopedRepository<PortalLink>;

  constructor(
    private readonly tables: TenantTables,
    private readonly pool: DatabasePool,
  ) {
    this.sessions = tables.of(ConsoleSession);
    this.links = tables.of(PortalLink);
  }

  @GenerateSql({ params: [{ id: DummyValue.UUID, secretHash: DummyValue.HASH, kind: 'tenant', tenantId: DummyValue.TENANT_ID, adminKeyHash: null, createdAt: DummyValue.DATE, expiresAt: DummyValue.DATE }] })
  insert(session: ConsoleSession): Promise<unknown> {
    return this.sessions.acrossTenants('an operator session has no tenant; a tenant session comes from a redeemed link').insert(session);
  }

  @GenerateSql({ params: [DummyValue.HASH] })
  async findBySecretHash(secretHash: string): Promise<SessionWithTenant | null> {
    const rows = await this.pool.query(SESSION_BY_HASH_SQL, [secretHash]);
    if (rows.length === 0) return null;
    const [row] = rows;
    const session = Object.assign(new ConsoleSession(), {
      id: row.id,
      secretHash: row.secret_hash,
      kind: row.kind,
      tenantId: row.tenant_id,
      adminKeyHash: row.admin_key_hash,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    });
    return { session, tenantStatus: row.tenant_status, tenantName: row.tenant_name };
  }

  /** The link `tokenHash` if it could be redeemed at `now` (unused, unexpired, its tenant active), left unused. */
  @GenerateSql({ params: [DummyValue.HASH, DummyValue.DATE] })
  async findUsablePortalLink(tokenHash: string, now: Date): Promise<UsablePortalLink | null> {
    const [row] = await this.pool.query(USABLE_LINK_SQL, [tokenHash, now]);
    return row ? { tenantId: row.tenant_id, tenantName: row.tenant_name, expiresAt: row.expires_at } : null;
  }

  @GenerateSql({ params: [DummyValue.UUID] })
  async deleteById(id: string): Promise<void> {
    await this.sessions.acrossTenants('a session ends by its own id, which only its cookie knows').delete({ id });
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID] })
  async deleteByTenant(tenantId: TenantId): Promise<void> {
    await this.sessions.for(tenantId).delete({});
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID, { id: DummyValue.UUID, tokenHash: DummyValue.HASH, tenantId: DummyValue.TENANT_ID, createdAt: DummyValue.DATE, expiresAt: DummyValue.DATE, redeemedAt: null }] })
  insertPortalLink(tenantId: TenantId, link: PortalLink): Promise<void> {
    return this.links.for(tenantId).insert(link);
  }

  /**
   * Redeems a portal link and opens the session it grants, in one transaction: the link is marked used (once,
   * before it expires) and, when its tenant is active, the session is stored for that tenant. Null when the link
   * is unknown, used, expired, or its tenant is disabled.
   */
  @GenerateSql({ params: [DummyValue.HASH, DummyValue.DATE, { id: DummyValue.UUID, secretHash: DummyValue.HASH, kind: 'tenant', tenantId: null, adminKeyHash: null, createdAt: DummyValue.DATE, expiresAt: DummyValue.DATE }] })
  redeemPortalLink(tokenHash: string, now: Date, session: ConsoleSession): Promise<ConsoleSession | null> {
    return this.tables.acrossTenants('a link is redeemed by its hash, which names its tenant', async (transaction) => {
      const [redeemed] = await transaction.rowsOf(REDEEM_SQL, [tokenHash, now]);
      if (!redeemed || redeemed.tenant_status !== 'active') return null;
      const opened = Object.assign(new ConsoleSession(), session, { tenantId: redeemed.tenant_id });
      await transaction.table(ConsoleSession).acrossTenants('the tenant is the redeemed link\'s').insert(opened);
      return opened;
    });
  }

  /** Removes sessions and portal links that have expired; returns how many rows went. */
  @GenerateSql({ params: [DummyValue.DATE] })
  async deleteExpired(now: Date): Promise<number> {
    const sessions = await this.sessions.acrossTenants('pruning ends every tenant\'s expired sessions').delete({ expiresAt: LessThan(now) });
    const links = await this.links.acrossTenants('pruning ends every tenant\'s expired links').delete({ expiresAt: LessThan(now) });
    return (sessions.affected ?? 0) + (links.affected ?? 0);
  }
}
