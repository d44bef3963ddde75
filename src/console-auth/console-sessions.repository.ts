import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThan, Repository } from 'typeorm';
import { TenantId } from '../common/tenant-id';
import { TenantStatus } from '../tenancy/tenant.entity';
import { ConsoleSession } from './console-session.entity';
import { PortalLink } from './portal-link.entity';

/** A session with the standing of its tenant (null for operator sessions). */
export interface SessionWithTenant {
  session: ConsoleSession;
  tenantStatus: TenantStatus | null;
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
}

const SESSION_BY_HASH_SQL = `
  SELECT s.id, s.secret_hash, s.kind, s.tenant_id, s.admin_key_hash, s.created_at, s.expires_at, t.status AS tenant_status
  FROM console_sessions s LEFT JOIN tenants t ON t.id = s.tenant_id
  WHERE s.secret_hash = $1`;

// Burns the link whatever its tenant's standing, so a link can never be tried twice.
const REDEEM_SQL = `
  UPDATE portal_links p SET redeemed_at = $2
  FROM tenants t
  WHERE t.id = p.tenant_id AND p.token_hash = $1 AND p.redeemed_at IS NULL AND p.expires_at > $2
  RETURNING p.tenant_id, t.status AS tenant_status`;

@Injectable()
export class ConsoleSessionsRepository {
  private readonly sessions: Repository<ConsoleSession>;
  private readonly links: Repository<PortalLink>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sessions = dataSource.getRepository(ConsoleSession);
    this.links = dataSource.getRepository(PortalLink);
  }

  insert(session: ConsoleSession): Promise<unknown> {
    return this.sessions.insert(session);
  }

  async findBySecretHash(secretHash: string): Promise<SessionWithTenant | null> {
    const rows: SessionRow[] = await this.dataSource.query(SESSION_BY_HASH_SQL, [secretHash]);
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
    return { session, tenantStatus: row.tenant_status };
  }

  async deleteById(id: string): Promise<void> {
    await this.sessions.delete({ id });
  }

  async deleteByTenant(tenantId: TenantId): Promise<void> {
    await this.sessions.delete({ tenantId });
  }

  insertPortalLink(link: PortalLink): Promise<unknown> {
    return this.links.insert(link);
  }

  /**
   * Redeems a portal link and opens the session it grants, in one transaction: the link is marked used (once,
   * before it expires) and, when its tenant is active, the session is stored for that tenant. Null when the link
   * is unknown, used, expired, or its tenant is disabled.
   */
  redeemPortalLink(tokenHash: string, now: Date, session: ConsoleSession): Promise<ConsoleSession | null> {
    return this.dataSource.transaction(async (manager) => {
      const [rows] = (await manager.query(REDEEM_SQL, [tokenHash, now])) as [Array<{ tenant_id: string; tenant_status: TenantStatus }>, number];
      const redeemed = rows[0];
      if (!redeemed || redeemed.tenant_status !== 'active') return null;
      const opened = Object.assign(new ConsoleSession(), session, { tenantId: redeemed.tenant_id });
      await manager.getRepository(ConsoleSession).insert(opened);
      return opened;
    });
  }

  /** Removes sessions and portal links that have expired; returns how many rows went. */
  async deleteExpired(now: Date): Promise<number> {
    const sessions = await this.sessions.delete({ expiresAt: LessThan(now) });
    const links = await this.links.delete({ expiresAt: LessThan(now) });
    return (sessions.affected ?? 0) + (links.affected ?? 0);
  }
}
