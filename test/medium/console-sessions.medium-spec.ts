import { AdminService } from '../../src/admin/admin.service';
import { TenantId } from '../../src/common/tenant-id';
import { InvalidPortalLinkError } from '../../src/console-auth/console-auth.errors';
import { ConsoleSessionsRepository } from '../../src/console-auth/console-sessions.repository';
import { ConsoleSessionsService } from '../../src/console-auth/console-sessions.service';
import { PortalLink } from '../../src/console-auth/portal-link.entity';
import { Services, TwoTenants, twoTenantSuite } from '../support/medium';

/** Console rows of one tenant, read straight from the database (TwoTenants.stored does not cover them). */
type ConsoleRows = Record<'console_sessions' | 'portal_links', unknown[]>;

/**
 * Tenant A's console sessions and portal links next to tenant B's: ending A's sessions or making A a link never
 * deletes, changes or shows a session or link of B's, and B's sessions keep resolving to B.
 */
describe('console sessions: tenant A never reaches tenant B (medium)', () => {
  const suite = twoTenantSuite();
  let world: TwoTenants;
  let services: Services;
  let repository: ConsoleSessionsRepository;
  let sessions: ConsoleSessionsService;
  /** A's and B's signed-in developers (a redeemed portal link each), an operator, and a link of B's not yet used. */
  let secrets: { a: string; b: string; operator: string; bLink: string };
  let bBefore: ConsoleRows;
  let bSecrets: string[];

  const ORIGIN = 'http://console.test';

  const consoleRows = async (tenantId: string): Promise<ConsoleRows> => {
    const rows = (sql: string) => services.dataSource.query(sql, [tenantId]);
    return {
      console_sessions: await rows('SELECT * FROM console_sessions WHERE tenant_id = $1 ORDER BY id'),
      portal_links: await rows('SELECT * FROM portal_links WHERE tenant_id = $1 ORDER BY id'),
    };
  };

  const signInThroughPortal = async (tenantId: TenantId) => {
    const link = await sessions.createPortalLink(tenantId, ORIGIN);
    return (await sessions.redeemPortalLink(link.token)).secret;
  };

  const resolvesTo = async (secret: string) => (await sessions.resolve(secret))?.principal;

  beforeEach(async () => {
    ({ world, services } = suite);
    repository = services.get(ConsoleSessionsRepository);
    sessions = services.get(ConsoleSessionsService);
    secrets = {
      a: await signInThroughPortal(world.a.id),
      b: await signInThroughPortal(world.b.id),
      operator: (await sessions.signIn(services.config.adminApiKey)).secret,
      bLink: (await sessions.createPortalLink(world.b.id, ORIGIN)).token,
    };
    bBefore = await consoleRows(world.b.id);
    expect(bBefore.console_sessions).toHaveLength(1);
    expect(bBefore.portal_links).toHaveLength(2);
    const hashes = [
      ...(bBefore.console_sessions as Array<{ id: string; secret_hash: string }>).flatMap((row) => [row.id, row.secret_hash]),
      ...(bBefore.portal_links as Array<{ id: string; token_hash: string }>).flatMap((row) => [row.id, row.token_hash]),
    ];
    bSecrets = [secrets.b, secrets.bLink, ...hashes];
  });

  /** `world.byA`, and B's console sessions and links unchanged and absent from what the call returned. */
  const byA = async <T>(call: () => Promise<T>): Promise<T> => {
    const result = await world.byA(call);
    expect(await consoleRows(world.b.id)).toEqual(bBefore);
    const text = JSON.stringify(result ?? null);
    for (const secret of bSecrets) expect(text).not.toContain(secret);
    return result;
  };

  /** B's developer is still signed in as B, and the operator is still signed in. */
  const expectBStillSignedIn = async () => {
    expect(await resolvesTo(secrets.b)).toEqual({ kind: 'tenant', tenantId: world.b.id });
    expect(await resolvesTo(secrets.operator)).toEqual({ kind: 'operator' });
  };

  describe('ConsoleSessionsRepository', () => {
    it('deleteByTenant deletes A’s sessions only: B’s and the operator’s stay valid', async () => {
      expect(await resolvesTo(secrets.a)).toEqual({ kind: 'tenant', tenantId: world.a.id });
      await byA(() => repository.deleteByTenant(world.a.id));
      expect((await consoleRows(world.a.id)).console_sessions).toEqual([]);
      expect(await resolvesTo(secrets.a)).toBeUndefined();
      await expectBStillSignedIn();
    });

    it('insertPortalLink refuses a link of B’s given as A’s, and stores no link', async () => {
      const link = Object.assign(new PortalLink(), {
        id: crypto.randomUUID(),
        tokenHash: 'b'.repeat(64),
        tenantId: world.b.id,
        createdAt: new Date(),
        expiresAt: new Date(Date.now() + 3_600_000),
        redeemedAt: null,
      });
      await expect(byA(() => repository.insertPortalLink(world.a.id, link))).rejects.toThrow('A row of another tenant cannot be inserted');
      expect(await consoleRows(world.b.id)).toEqual(bBefore);
      expect((await consoleRows(world.a.id)).portal_links).toHaveLength(1);
    });
  });

  describe('ConsoleSessionsService', () => {
    it('endTenantSessions ends A’s sessions only: B’s and the operator’s stay valid', async () => {
      await byA(() => sessions.endTenantSessions(world.a.id));
      expect(await resolvesTo(secrets.a)).toBeUndefined();
      await expectBStillSignedIn();
    });

    it('createPortalLink makes a link to a session of A’s, and B’s unused link still opens a session of B’s', async () => {
      const link = await byA(() => sessions.createPortalLink(world.a.id, ORIGIN));
      expect(link).toMatchObject({ tenant_id: world.a.id, url: `${ORIGIN}/console/portal#token=${link.token}` });
      expect((await consoleRows(world.a.id)).portal_links).toHaveLength(2);
      const opened = await sessions.redeemPortalLink(link.token);
      expect(opened.session.tenant_id).toBe(world.a.id);
      expect(await resolvesTo(opened.secret)).toEqual({ kind: 'tenant', tenantId: world.a.id });
      await expect(sessions.redeemPortalLink(link.token)).rejects.toThrow(InvalidPortalLinkError);
      await expectBStillSignedIn();
      const bOpened = await sessions.redeemPortalLink(secrets.bLink);
      expect(await resolvesTo(bOpened.secret)).toEqual({ kind: 'tenant', tenantId: world.b.id });
    });
  });

  describe('AdminService', () => {
    it('disabling A ends A’s console sessions, and B’s stay valid', async () => {
      await byA(() => services.get(AdminService).updateTenant(world.a.id, { status: 'disabled' }));
      expect((await consoleRows(world.a.id)).console_sessions).toEqual([]);
      await expectBStillSignedIn();
    });
  });
});
