import { AdminService } from '../../src/admin/admin.service';
import { HmacKey } from '../../src/webhooks/hmac-key.entity';
import { HmacKeysRepository } from '../../src/webhooks/hmac-keys.repository';
import { HmacKeysService } from '../../src/webhooks/hmac-keys.service';
import { HmacKeyNotFoundError } from '../../src/webhooks/webhooks.errors';
import { TwoTenants, twoTenantSuite } from '../support/medium';

/** Tenant A manages its HMAC keys with tenant B's key ids: nothing of B's is read, revoked or signed with. */
describe('HMAC keys: tenant A never reaches tenant B (medium)', () => {
  const suite = twoTenantSuite();
  let world: TwoTenants;
  let repository: HmacKeysRepository;
  let keys: HmacKeysService;
  let admin: AdminService;
  beforeEach(() => {
    ({ world } = suite);
    repository = suite.services.get(HmacKeysRepository);
    keys = suite.services.get(HmacKeysService);
    admin = suite.services.get(AdminService);
  });

  const bKeyIds = () => world.b.hmacKeys.map((key) => key.id);
  const bSigningKeys = () => ({ primary: world.b.hmacKeys[1].key, all: [world.b.hmacKeys[1].key, world.b.hmacKeys[0].key] });

  describe('HmacKeysRepository', () => {
    it('listPage and listActive list A’s keys only', async () => {
      expect((await world.byA(() => repository.listPage(world.a.id, 100))).map(({ row }) => row.id)).toEqual([world.a.hmacKeys[0].id]);
      expect((await world.byA(() => repository.listActive(world.a.id))).map((key) => key.id)).toEqual([world.a.hmacKeys[0].id]);
    });

    it('findByTenantAndId finds none of B’s keys for A', async () => {
      for (const id of bKeyIds()) expect(await world.byA(() => repository.findByTenantAndId(world.a.id, id))).toBeNull();
    });

    it('revoke with B’s key id revokes nothing', async () => {
      for (const id of bKeyIds()) await world.byA(() => repository.revoke(world.a.id, id, new Date()));
    });

    it('activeKeys holds A’s active key only (no id or ciphertext of B’s), and nothing once A has none', async () => {
      const ciphertexts = async (tenantId: string) =>
        ((await world.stored(tenantId)).hmac_keys as Array<{ key_ciphertext: string }>).map((key) => key.key_ciphertext);
      const bCiphertexts = await ciphertexts(world.b.id);
      expect(bCiphertexts).toHaveLength(2);
      const active = await world.byA(() => repository.activeKeys(world.a.id));
      expect(active).toEqual([{ id: world.a.hmacKeys[0].id, keyCiphertext: (await ciphertexts(world.a.id))[0] }]);
      for (const ciphertext of bCiphertexts) expect(JSON.stringify(active)).not.toContain(ciphertext);
      await repository.revoke(world.a.id, world.a.hmacKeys[0].id, new Date());
      expect(await world.byA(() => repository.activeKeys(world.a.id))).toEqual([]);
    });

    it('insertWithinLimit counts A’s active keys against the limit, not B’s, and trims A’s revoked keys only', async () => {
      // A has one active key; B one active and one revoked. A limit of 2 lets A make one more; keeping no revoked
      // key trims none of B's.
      await admin.revokeHmacKey(world.b.id, world.b.hmacKeys[0].id);
      await world.rememberB();
      const key = () => Object.assign(new HmacKey(), { id: crypto.randomUUID(), tenantId: world.a.id, keyCiphertext: 'sealed by A', createdAt: new Date(), revokedAt: null });
      expect(await world.byA(() => repository.insertWithinLimit(world.a.id, key(), { active: 2, revoked: 0 }))).toBe(true);
      expect(await world.byA(() => repository.insertWithinLimit(world.a.id, key(), { active: 2, revoked: 0 }))).toBe(false);
      expect((await world.stored(world.a.id)).hmac_keys).toHaveLength(2);
    });
  });

  describe('HmacKeysService', () => {
    it('list shows A’s keys only, A’s own key primary', async () => {
      expect((await world.byA(() => keys.list(world.a.id))).items).toEqual([expect.objectContaining({ id: world.a.hmacKeys[0].id, primary: true })]);
    });

    it('signingKeys gives A’s plaintext keys only, also right after B’s were read (and cached)', async () => {
      expect(await keys.signingKeys(world.b.id)).toEqual(bSigningKeys());
      const mine = { primary: world.a.hmacKeys[0].key, all: [world.a.hmacKeys[0].key] };
      expect(await world.byA(() => keys.signingKeys(world.a.id))).toEqual(mine);
    });

    it('create makes a key for A without changing B’s keys or which of B’s is primary', async () => {
      expect(await keys.signingKeys(world.b.id)).toEqual(bSigningKeys());
      const created = await world.byA(() => keys.create(world.a.id));
      expect(created.primary).toBe(true);
      expect((await world.byA(() => keys.signingKeys(world.a.id)))?.primary).toBe(created.key);
      expect(await keys.signingKeys(world.b.id)).toEqual(bSigningKeys());
      expect((await keys.list(world.b.id)).items.find((key) => key.primary)?.id).toBe(world.b.hmacKeys[1].id);
    });

    it('revoke with B’s key id is Key not found, and B still signs with it', async () => {
      for (const id of bKeyIds()) await expect(world.byA(() => keys.revoke(world.a.id, id))).rejects.toThrow(HmacKeyNotFoundError);
      expect(await keys.signingKeys(world.b.id)).toEqual(bSigningKeys());
    });
  });

  describe('AdminService', () => {
    it('lists, creates and revokes A’s keys, and refuses B’s key ids', async () => {
      const created = await world.byA(() => admin.createHmacKey(world.a.id));
      expect((await world.byA(() => admin.listHmacKeys(world.a.id))).items.map((key) => key.id)).toEqual([created.id, world.a.hmacKeys[0].id]);
      for (const id of bKeyIds()) await expect(world.byA(() => admin.revokeHmacKey(world.a.id, id))).rejects.toThrow(HmacKeyNotFoundError);
      await world.byA(() => admin.revokeHmacKey(world.a.id, created.id));
      expect(await keys.signingKeys(world.a.id)).toEqual({ primary: world.a.hmacKeys[0].key, all: [world.a.hmacKeys[0].key] });
    });
  });
});
