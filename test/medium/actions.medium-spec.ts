import { Action } from '../../src/actions/action.entity';
import { ActionLimitReachedError, ActionNotFoundError } from '../../src/actions/actions.errors';
import { ActionsRepository } from '../../src/actions/actions.repository';
import { ActionsService } from '../../src/actions/actions.service';
import { DatabasePool } from '../../src/database/database-pool';
import { signedWith, TwoTenants, twoTenantSuite } from '../support/medium';
import { Receiver } from '../support/receiver';

/** Tenant A's calls against tenant B's actions of the same name: nothing of B's is read, changed or deleted. */
describe('actions: tenant A never reaches tenant B (medium)', () => {
  // A tenant may have two actions: B (shared, only_b) is at the limit, A (shared) is not.
  const suite = twoTenantSuite({ ACTIONS_PER_TENANT: '2' });
  let world: TwoTenants;
  let receivers: { a: Receiver; b: Receiver };
  let repository: ActionsRepository;
  let actions: ActionsService;
  beforeEach(() => {
    ({ world, receivers } = suite);
    repository = suite.services.get(ActionsRepository);
    actions = suite.services.get(ActionsService);
  });

  const newAction = (tenantId: string, name: string): Action =>
    Object.assign(new Action(), {
      id: crypto.randomUUID(),
      tenantId,
      name,
      description: 'A made it',
      jsonSchema: { type: 'object' },
      webhookUrl: receivers.a.url('/a-new'),
      createdAt: new Date(),
      updatedAt: new Date(),
    });

  describe('ActionsRepository', () => {
    it('actionsOfTenant lists A’s actions only', async () => {
      const listed = await world.byA(() => repository.actionsOfTenant(world.a.id));
      expect(listed.map((action) => action.id)).toEqual([world.a.actions.shared.id]);
    });

    it('actionsOfTenant of A and of B, read in one statement of the read model, gives each its own actions', async () => {
      const [ofA, ofB] = await Promise.all([repository.actionsOfTenant(world.a.id), repository.actionsOfTenant(world.b.id)]);
      expect(ofA.map((action) => action.id)).toEqual([world.a.actions.shared.id]);
      expect(ofB.map((action) => action.id)).toEqual([world.b.actions.only_b.id, world.b.actions.shared.id]);
    });

    it('findByName finds A’s action of a name B also has, and none of a name only B has', async () => {
      expect((await world.byA(() => repository.findByName(world.a.id, 'shared')))?.id).toBe(world.a.actions.shared.id);
      expect(await world.byA(() => repository.findByName(world.a.id, 'only_b'))).toBeNull();
    });

    it('countByTenant counts A’s actions only', async () => {
      expect(await world.byA(() => repository.countByTenant(world.a.id))).toBe(1);
    });

    it('insertWithinLimit takes a name only B has, and counts A’s actions against the limit, not B’s', async () => {
      const action = newAction(world.a.id, 'only_b');
      expect(await world.byA(() => repository.insertWithinLimit(world.a.id, action, 2))).toBe('created');
      expect((await world.stored(world.a.id)).actions).toHaveLength(2);
      expect(await world.byA(() => repository.insertWithinLimit(world.a.id, newAction(world.a.id, 'third'), 2))).toBe('limit_reached');
    });

    it('update changes A’s action of a name B also has, and nothing of a name only B has', async () => {
      const updated = await world.byA(() => repository.update(world.a.id, 'shared', { description: 'changed by A' }, new Date()));
      expect(updated).toMatchObject({ id: world.a.actions.shared.id, description: 'changed by A' });
      expect(await world.byA(() => repository.update(world.a.id, 'only_b', { description: 'changed by A' }, new Date()))).toBeNull();
    });

    it('setPayloadLogging turns off A’s action of a name B also has (B’s keeps logging), and nothing of a name only B has', async () => {
      const changed = await world.byA(() => repository.setPayloadLogging(world.a.id, 'shared', false));
      expect(changed).toMatchObject({ id: world.a.actions.shared.id, payloadLogging: false });
      expect(await world.byA(() => repository.setPayloadLogging(world.a.id, 'only_b', false))).toBeNull();
    });

    it('delete deletes A’s action of a name B also has, and nothing of a name only B has', async () => {
      expect(await world.byA(() => repository.delete(world.a.id, 'only_b'))).toBe(false);
      expect(await world.byA(() => repository.delete(world.a.id, 'shared'))).toBe(true);
      expect((await world.stored(world.a.id)).actions).toEqual([]);
    });
  });

  describe('ActionsService', () => {
    it('list and get show A’s actions only', async () => {
      expect(await world.byA(() => actions.list(world.a.id))).toEqual([world.a.actions.shared]);
      expect(await world.byA(() => actions.get(world.a.id, 'shared'))).toEqual(world.a.actions.shared);
      await expect(world.byA(() => actions.get(world.a.id, 'only_b'))).rejects.toThrow(ActionNotFoundError);
    });

    it('findExecutable gives A’s action even when B’s of the same name was just read (and cached)', async () => {
      expect((await actions.findExecutable(world.b.id, 'shared')).id).toBe(world.b.actions.shared.id);
      const executable = await world.byA(() => actions.findExecutable(world.a.id, 'shared'));
      expect(executable).toMatchObject({ id: world.a.actions.shared.id, webhookUrl: world.a.actions.shared.webhook_url });
      await expect(world.byA(() => actions.findExecutable(world.a.id, 'only_b'))).rejects.toThrow(ActionNotFoundError);
    });

    it('create registers a name only B has, with A’s quota, and signs the registration test with A’s key', async () => {
      const created = await world.byA(() =>
        actions.create(world.a.id, { name: 'only_b', description: 'A made it', webhook_url: receivers.a.url('/a-new'), json_schema: { type: 'object' } }),
      );
      expect(created).toMatchObject({ tenant_id: world.a.id, name: 'only_b' });
      expect(receivers.a.calls).toHaveLength(1);
      expect(signedWith(receivers.a.calls[0], world.a.hmacKeys[0].key)).toEqual({ body: true, headers: true });
      // A now has two actions, the limit: B's count never entered into it.
      await expect(
        world.byA(() => actions.create(world.a.id, { name: 'third', description: 'x', webhook_url: receivers.a.url(), json_schema: { type: 'object' } })),
      ).rejects.toThrow(ActionLimitReachedError);
    });

    it('update changes A’s action of a name B also has (new URL tested with A’s key), and B’s stays readable as it was', async () => {
      const bBefore = await actions.findExecutable(world.b.id, 'shared');
      const updated = await world.byA(() =>
        actions.update(world.a.id, 'shared', { description: 'changed by A', webhook_url: receivers.a.url('/a-moved') }),
      );
      expect(updated).toMatchObject({ id: world.a.actions.shared.id, description: 'changed by A', webhook_url: receivers.a.url('/a-moved') });
      expect(signedWith(receivers.a.calls[0], world.a.hmacKeys[0].key)).toEqual({ body: true, headers: true });
      expect(await actions.findExecutable(world.b.id, 'shared')).toEqual(bBefore);
      expect(await actions.get(world.b.id, 'shared')).toEqual(world.b.actions.shared);
      await expect(world.byA(() => actions.update(world.a.id, 'only_b', { description: 'changed by A' }))).rejects.toThrow(ActionNotFoundError);
    });

    it('delete removes A’s action of a name B also has, and refuses a name only B has', async () => {
      await expect(world.byA(() => actions.delete(world.a.id, 'only_b'))).rejects.toThrow(ActionNotFoundError);
      await world.byA(() => actions.delete(world.a.id, 'shared'));
      await expect(actions.get(world.a.id, 'shared')).rejects.toThrow(ActionNotFoundError);
      expect((await actions.findExecutable(world.b.id, 'shared')).id).toBe(world.b.actions.shared.id);
    });

    it('a change made while a read of the same action is in flight is not overwritten by that read', async () => {
      // The read starts, the action changes (its log entry is applied), then the read finishes with the old row:
      // it must not be kept in memory, or executions would go on running the old definition.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const pool = suite.services.get(DatabasePool);
      const query = pool.query.bind(pool);
      // The read model's next statement (the read's) is held after it has read the old row.
      const spy = jest.spyOn(pool, 'query').mockImplementationOnce(async (sql, parameters) => {
        const rows = await query(sql, parameters);
        await held;
        return rows;
      });
      try {
        const stale = actions.findExecutable(world.a.id, 'shared');
        await new Promise((resolve) => setImmediate(resolve));
        await actions.update(world.a.id, 'shared', { webhook_url: receivers.a.url('/a-moved') });
        release();
        expect((await stale).webhookUrl).toBe(world.a.actions.shared.webhook_url);
        expect((await actions.findExecutable(world.a.id, 'shared')).webhookUrl).toBe(receivers.a.url('/a-moved'));
      } finally {
        spy.mockRestore();
      }
      await world.expectBUntouched();
    });
  });
});
