import { ActionNotFoundError } from '../../src/actions/actions.errors';
import { AdminService } from '../../src/admin/admin.service';
import { NoActiveHmacKeyError } from '../../src/executions/executions.errors';
import { ExecutionsRepository } from '../../src/executions/executions.repository';
import { ExecutionsService } from '../../src/executions/executions.service';
import { Services, signedWith, TwoTenants, twoTenantSuite } from '../support/medium';
import { Receiver } from '../support/receiver';

/** Tenant A runs and reads executions next to tenant B's action of the same name: B's are never touched. */
describe('executions: tenant A never reaches tenant B (medium)', () => {
  const suite = twoTenantSuite();
  let world: TwoTenants;
  let receivers: { a: Receiver; b: Receiver };
  let repository: ExecutionsRepository;
  let executions: ExecutionsService;
  let services: Services;
  beforeEach(() => {
    ({ world, receivers } = suite);
    repository = suite.services.get(ExecutionsRepository);
    executions = suite.services.get(ExecutionsService);
    services = suite.services;
  });

  describe('ExecutionsRepository', () => {
    it('listByAction with B’s action id lists nothing for A', async () => {
      expect(await world.byA(() => repository.listByAction(world.a.id, world.b.actions.shared.id, 100))).toEqual([]);
    });
  });

  describe('ExecutionsService', () => {
    it('execute runs A’s action of a name B also has: A’s URL, signed with A’s keys only, stored as A’s', async () => {
      const execution = await world.byA(() => executions.execute(world.a.id, 'shared', { city: 'Oslo' }));
      expect(execution).toMatchObject({ action_name: 'shared', status: 'succeeded' });
      expect(receivers.a.calls.map((call) => call.path)).toEqual(['/a-hook']);
      const [call] = receivers.a.calls;
      expect(signedWith(call, world.a.hmacKeys[0].key)).toEqual({ body: true, headers: true });
      for (const { key } of world.b.hmacKeys) expect(signedWith(call, key)).toEqual({ body: false, headers: false });
      const stored = (await world.stored(world.a.id)).executions as Array<{ id: string; tenant_id: string; action_id: string }>;
      expect(stored).toEqual([expect.objectContaining({ id: execution.id, tenant_id: world.a.id, action_id: world.a.actions.shared.id })]);
    });

    it('execute of a name only B has is Action not found, and nothing is sent', async () => {
      await expect(world.byA(() => executions.execute(world.a.id, 'only_b', {}))).rejects.toThrow(ActionNotFoundError);
      expect(receivers.a.calls).toEqual([]);
    });

    it('execute without an active key of A’s own refuses, though B has keys (never signs with B’s)', async () => {
      await services.get(AdminService).revokeHmacKey(world.a.id, world.a.hmacKeys[0].id);
      await expect(world.byA(() => executions.execute(world.a.id, 'shared', {}))).rejects.toThrow(NoActiveHmacKeyError);
      expect(receivers.a.calls).toEqual([]);
    });

    it('list shows A’s executions of a name B also has, and none of a name only B has', async () => {
      const mine = await executions.execute(world.a.id, 'shared', {});
      expect(await world.byA(() => executions.list(world.a.id, 'shared', 100))).toEqual([mine]);
      await expect(world.byA(() => executions.list(world.a.id, 'only_b', 100))).rejects.toThrow(ActionNotFoundError);
    });
  });
});
