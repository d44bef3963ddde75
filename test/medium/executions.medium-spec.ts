import { ActionNotFoundError } from '../../src/actions/actions.errors';
import { AdminService } from '../../src/admin/admin.service';
import { ExecutionNotFoundError, NoActiveHmacKeyError } from '../../src/executions/executions.errors';
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

  const bExecutionIds = async () => ((await world.stored(world.b.id)).executions as Array<{ id: string }>).map((row) => row.id);

  describe('ExecutionsRepository', () => {
    it('listByAction with B’s action id lists nothing for A', async () => {
      expect(await world.byA(() => repository.listByAction(world.a.id, world.b.actions.shared.id, 100))).toEqual([]);
    });

    it('findByActionAndId finds A’s execution, and none of B’s for A, whichever action id it is asked with', async () => {
      const mine = await executions.execute(world.a.id, 'shared', {});
      expect((await world.byA(() => repository.findByActionAndId(world.a.id, world.a.actions.shared.id, mine.id)))?.id).toBe(mine.id);
      const bIds = await bExecutionIds();
      expect(bIds).toHaveLength(1);
      for (const id of bIds) {
        expect(await world.byA(() => repository.findByActionAndId(world.a.id, world.b.actions.shared.id, id))).toBeNull();
        expect(await world.byA(() => repository.findByActionAndId(world.a.id, world.a.actions.shared.id, id))).toBeNull();
      }
      expect(await world.byA(() => repository.findByActionAndId(world.a.id, world.b.actions.shared.id, mine.id))).toBeNull();
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

    it('listWithAttempts (the admin log) shows A’s executions of a name B also has, with every status filter, and none of a name only B has', async () => {
      const mine = await executions.execute(world.a.id, 'shared', {});
      const listed = await world.byA(() => executions.listWithAttempts(world.a.id, 'shared', 100));
      expect(listed).toEqual([{ ...mine, attempt_log: [expect.objectContaining({ attempt: 1, http_status: 200 })] }]);
      expect(await world.byA(() => executions.listWithAttempts(world.a.id, 'shared', 100, 'succeeded'))).toEqual(listed);
      expect(await world.byA(() => executions.listWithAttempts(world.a.id, 'shared', 100, 'failed'))).toEqual([]);
      await expect(world.byA(() => executions.listWithAttempts(world.a.id, 'only_b', 100))).rejects.toThrow(ActionNotFoundError);
    });

    it('getWithAttempts (the admin log) gives A’s execution, and refuses B’s execution id under either action name', async () => {
      const mine = await executions.execute(world.a.id, 'shared', {});
      const got = await world.byA(() => executions.getWithAttempts(world.a.id, 'shared', mine.id));
      expect(got).toEqual({ ...mine, attempt_log: [expect.objectContaining({ attempt: 1, http_status: 200 })] });
      for (const id of await bExecutionIds()) {
        await expect(world.byA(() => executions.getWithAttempts(world.a.id, 'shared', id))).rejects.toThrow(ExecutionNotFoundError);
        await expect(world.byA(() => executions.getWithAttempts(world.a.id, 'only_b', id))).rejects.toThrow(ActionNotFoundError);
      }
    });
  });
});
