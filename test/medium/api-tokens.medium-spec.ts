import { AdminService } from '../../src/admin/admin.service';
import { ApiTokenNotFoundError } from '../../src/auth/auth.errors';
import { ApiToken } from '../../src/auth/api-token.entity';
import { ApiTokensRepository } from '../../src/auth/api-tokens.repository';
import { ApiTokensService } from '../../src/auth/api-tokens.service';
import { generateApiToken } from '../../src/auth/token-credentials';
import { TwoTenants, twoTenantSuite } from '../support/medium';

/** Tenant A manages its API tokens with tenant B's token ids: nothing of B's is read, revoked or accepted. */
describe('API tokens: tenant A never reaches tenant B (medium)', () => {
  const suite = twoTenantSuite();
  let world: TwoTenants;
  let repository: ApiTokensRepository;
  let tokens: ApiTokensService;
  let admin: AdminService;
  beforeEach(() => {
    ({ world } = suite);
    repository = suite.services.get(ApiTokensRepository);
    tokens = suite.services.get(ApiTokensService);
    admin = suite.services.get(AdminService);
  });

  const bTokenIds = () => world.b.apiTokens.map((token) => token.id);

  describe('ApiTokensRepository', () => {
    it('listPage lists A’s tokens only', async () => {
      const listed = await world.byA(() => repository.listPage(world.a.id, 100));
      expect(listed.map(({ row }) => row.id)).toEqual([world.a.apiTokens[0].id]);
    });

    it('findByTenantAndId finds none of B’s tokens for A', async () => {
      for (const id of bTokenIds()) expect(await world.byA(() => repository.findByTenantAndId(world.a.id, id))).toBeNull();
      expect((await repository.findByTenantAndId(world.a.id, world.a.apiTokens[0].id))?.id).toBe(world.a.apiTokens[0].id);
    });

    it('revoke with B’s token id revokes nothing', async () => {
      for (const id of bTokenIds()) expect(await world.byA(() => repository.revoke(world.a.id, id, new Date()))).toBe(false);
    });

    it('insertWithinLimit counts A’s usable tokens against the limit, not B’s, and trims A’s revoked tokens only', async () => {
      // A has one usable token; B one usable and one revoked. A limit of 2 lets A make one more; keeping no revoked
      // token trims none of B's.
      await admin.revokeApiToken(world.b.id, world.b.apiTokens[1].id);
      await world.rememberB();
      const now = new Date();
      const token = (name: string) => {
        const { hash, prefix } = generateApiToken();
        return Object.assign(new ApiToken(), { id: crypto.randomUUID(), tenantId: world.a.id, name, prefix, tokenHash: hash, createdAt: now, expiresAt: null, lastUsedAt: null, revokedAt: null });
      };
      expect(await world.byA(() => repository.insertWithinLimit(world.a.id, token('second of A'), { usable: 2, dead: 0 }, now))).toBe(true);
      expect(await world.byA(() => repository.insertWithinLimit(world.a.id, token('third of A'), { usable: 2, dead: 0 }, now))).toBe(false);
      expect((await world.stored(world.a.id)).api_tokens).toHaveLength(2);
    });
  });

  describe('ApiTokensService', () => {
    it('list shows A’s tokens only; create adds one to A', async () => {
      const created = await world.byA(() => tokens.create(world.a.id, 'second of A'));
      const listed = (await world.byA(() => tokens.list(world.a.id))).items;
      expect(listed.map((token) => token.id)).toEqual([created.id, world.a.apiTokens[0].id]);
    });

    it('revoke with B’s token id is Token not found, and B’s token still works', async () => {
      for (const id of bTokenIds()) await expect(world.byA(() => tokens.revoke(world.a.id, id))).rejects.toThrow(ApiTokenNotFoundError);
      for (const id of bTokenIds()) expect(await tokens.isUsable(id, world.b.id)).toBe(true);
    });

    it('isUsable refuses B’s token claimed for A, whether or not its standing is cached', async () => {
      const [first, second] = bTokenIds();
      expect(await world.byA(() => tokens.isUsable(first, world.a.id))).toBe(false); // nothing known yet
      expect(await tokens.isUsable(second, world.b.id)).toBe(true); // B's standing is now remembered
      expect(await world.byA(() => tokens.isUsable(second, world.a.id))).toBe(false);
      expect(await tokens.isUsable(world.a.apiTokens[0].id, world.a.id)).toBe(true);
    });
  });

  describe('AdminService', () => {
    it('lists, creates and revokes A’s tokens, and refuses B’s token ids', async () => {
      const created = await world.byA(() => admin.createApiToken(world.a.id, 'made by the panel'));
      expect((await world.byA(() => admin.listApiTokens(world.a.id))).items.map((token) => token.id)).toEqual([created.id, world.a.apiTokens[0].id]);
      for (const id of bTokenIds()) await expect(world.byA(() => admin.revokeApiToken(world.a.id, id))).rejects.toThrow(ApiTokenNotFoundError);
      await world.byA(() => admin.revokeApiToken(world.a.id, created.id));
      expect(await tokens.isUsable(created.id, world.a.id)).toBe(false);
    });
  });
});
