import { ActionNotFoundError } from '../../src/actions/actions.errors';
import { ActionsService } from '../../src/actions/actions.service';
import { TenancyService } from '../../src/tenancy/tenancy.service';
import { AdminService } from '../../src/admin/admin.service';
import { ExecutionNotFoundError, NoActiveHmacKeyError } from '../../src/executions/executions.errors';
import { BulkReplays, ReplayNotFoundError } from '../../src/executions/bulk-replays';
import { ExecutionReplaysRepository } from '../../src/executions/execution-replays.repository';
import { ExecutionReadsRepository } from '../../src/executions/execution-reads.repository';
import { ExecutionRollupsRepository } from '../../src/executions/execution-rollups.repository';
import { ExecutionWritesRepository } from '../../src/executions/execution-writes.repository';
import { ExecutionsService } from '../../src/executions/executions.service';
import { ExecutionLogService } from '../../src/executions/execution-log.service';
import { Execution } from '../../src/executions/execution.entity';
import { PageCursors } from '../../src/common/page-cursors';
import { InvalidRequestError } from '../../src/common/common.errors';
import { B_MARK, Services, signedWith, TwoTenants, twoTenantSuite } from '../support/medium';
import { Receiver } from '../support/receiver';

/** Tenant A runs and reads executions next to tenant B's action of the same name: B's are never touched. */
describe('executions: tenant A never reaches tenant B (medium)', () => {
  const suite = twoTenantSuite();
  let world: TwoTenants;
  let receivers: { a: Receiver; b: Receiver };
  let repository: ExecutionReadsRepository;
  let rollups: ExecutionRollupsRepository;
  let writes: ExecutionWritesRepository;
  let executions: ExecutionsService;
  let log: ExecutionLogService;
  let services: Services;
  beforeEach(() => {
    ({ world, receivers } = suite);
    repository = suite.services.get(ExecutionReadsRepository);
    rollups = suite.services.get(ExecutionRollupsRepository);
    writes = suite.services.get(ExecutionWritesRepository);
    executions = suite.services.get(ExecutionsService);
    log = suite.services.get(ExecutionLogService);
    services = suite.services;
  });

  const bExecutionIds = async () => ((await world.stored(world.b.id)).executions as Array<{ id: string }>).map((row) => row.id);

  describe('ExecutionReadsRepository and ExecutionRollupsRepository', () => {
    const keptSince = new Date(0);

    it('list with B’s action id lists nothing for A, with or without filters', async () => {
      for (const filter of [{ actionId: world.b.actions.shared.id }, { actionId: world.b.actions.shared.id, status: 'succeeded' as const }, {}]) {
        expect(await world.byA(() => repository.list(world.a.id, filter, keptSince, 100))).toEqual([]);
      }
    });

    it('find finds A’s execution, and none of B’s for A, whichever action id it is asked with', async () => {
      const mine = await executions.execute(world.a.id, 'shared', {});
      expect((await world.byA(() => repository.find(world.a.id, mine.id, keptSince, world.a.actions.shared.id)))?.id).toBe(mine.id);
      const bIds = await bExecutionIds();
      expect(bIds).toHaveLength(1);
      for (const id of bIds) {
        expect(await world.byA(() => repository.find(world.a.id, id, keptSince, world.b.actions.shared.id))).toBeUndefined();
        expect(await world.byA(() => repository.find(world.a.id, id, keptSince, world.a.actions.shared.id))).toBeUndefined();
        expect(await world.byA(() => repository.find(world.a.id, id, keptSince))).toBeUndefined();
      }
      expect(await world.byA(() => repository.find(world.a.id, mine.id, keptSince, world.b.actions.shared.id))).toBeUndefined();
    });

    it('findPayload and stats of B’s ids give A nothing', async () => {
      const [bExecution] = (await world.stored(world.b.id)).executions as Array<{ id: string; created_at: Date }>;
      const asIfA = Object.assign(new Execution(), { id: bExecution.id, createdAt: bExecution.created_at });
      expect(await world.byA(() => repository.findPayload(world.a.id, asIfA, keptSince))).toBeUndefined();
      const none = { hourly: [], daily: [] };
      expect(await world.byA(() => rollups.stats(world.a.id, keptSince, keptSince, world.b.actions.shared.id))).toEqual(none);
      expect(await world.byA(() => rollups.stats(world.a.id, keptSince, keptSince))).toEqual(none);
      expect(await world.byA(() => rollups.statsPerAction(world.a.id, keptSince))).toEqual([]);
    });
  });

  describe('bulk replays', () => {
    const since = new Date(0);
    const until = new Date(Date.now() + 3_600_000);
    const start = { position: '-infinity', id: '00000000-0000-0000-0000-000000000000' };
    let replays: ExecutionReplaysRepository;
    /** A failed execution of B's `shared`, and a replay of B's still running. */
    let bFailed: string;
    let bReplay: string;

    beforeEach(async () => {
      replays = services.get(ExecutionReplaysRepository);
      bFailed = crypto.randomUUID();
      const execution = Object.assign(new Execution(), {
        id: bFailed,
        tenantId: world.b.id,
        actionId: world.b.actions.shared.id,
        actionName: 'shared',
        status: 'failed',
        httpStatus: 500,
        result: null,
        error: `${B_MARK} receiver answered 500`,
        durationMs: 1,
        attempts: 1,
        attemptLog: [],
        createdAt: new Date(),
        replayOf: null,
        payload: 'off',
      });
      await writes.insert({ execution });
      bReplay = crypto.randomUUID();
      await replays.insert(world.b.id, bReplay, world.b.actions.shared.id, 'shared', since, until, 1, new Date());
      await world.rememberB();
    });

    it('ExecutionReplaysRepository: find, running, countFailed and nextFailed give A nothing of B’s, asked with B’s ids', async () => {
      expect(await replays.countFailed(world.b.id, world.b.actions.shared.id, since, until, 10)).toBe(1);
      expect(await world.byA(() => replays.find(world.a.id, bReplay))).toBeUndefined();
      expect(await world.byA(() => replays.running(world.a.id, since))).toBeUndefined();
      expect(await world.byA(() => replays.countFailed(world.a.id, world.b.actions.shared.id, since, until, 10))).toBe(0);
      expect(await world.byA(() => replays.nextFailed(world.a.id, world.b.actions.shared.id, since, until, start, 10))).toEqual([]);
    });

    it('ExecutionReplaysRepository: saveProgress with B’s replay id changes nothing of B’s', async () => {
      const progress = { status: 'stopped' as const, stopped_reason: 'stopped by A', done: 1, succeeded: 0, failed: 1, skipped: 0, updated_at: new Date(), finished_at: new Date() };
      await world.byA(() => replays.saveProgress(world.a.id, bReplay, progress));
    });

    it('BulkReplays: A starts a replay while B’s runs, replays none of B’s failures, and cannot read B’s replay', async () => {
      const bulk = services.get(BulkReplays);
      const started = await world.byA(() => bulk.start(world.a.id, 'shared', { since: since.toISOString() }));
      expect(started).toMatchObject({ action_name: 'shared', total: 0 });
      await bulk.settled();
      expect(await world.byA(() => bulk.get(world.a.id, 'shared', started.id))).toMatchObject({ status: 'done', done: 0 });
      await expect(world.byA(() => bulk.get(world.a.id, 'shared', bReplay))).rejects.toThrow(ReplayNotFoundError);
      expect(receivers.a.calls).toEqual([]);
    });
  });

  describe('asynchronous executions', () => {
    const pending = (tenantActionId: string, id = crypto.randomUUID()) => ({ id, actionId: tenantActionId, actionName: 'shared', createdAt: new Date(), payload: 'off' as const });
    const noJob = async () => undefined;
    /** B's unfinished execution of `shared`, stored as an accept stores it (its job left out). */
    let bPending: ReturnType<typeof pending>;

    beforeEach(async () => {
      bPending = pending(world.b.actions.shared.id);
      expect(await writes.accept(world.b.id, bPending, 1, noJob)).toBe(true);
      await world.rememberB();
    });

    it('accept counts A’s unfinished executions only, and stores A’s', async () => {
      // B is at a limit of 1; A is not.
      const mine = pending(world.a.actions.shared.id);
      expect(await world.byA(() => writes.accept(world.a.id, mine, 1, noJob))).toBe(true);
      expect(await world.byA(() => writes.accept(world.a.id, pending(world.a.actions.shared.id), 1, noJob))).toBe(false);
      const stored = (await world.stored(world.a.id)).executions as Array<{ id: string; tenant_id: string; status: string }>;
      expect(stored).toEqual([expect.objectContaining({ id: mine.id, tenant_id: world.a.id, status: 'pending' })]);
    });

    it('markRunning, recordAttempts and finish with B’s execution id change nothing of B’s and say so', async () => {
      expect(await world.byA(() => writes.markRunning(world.a.id, bPending.id, bPending.createdAt))).toBeUndefined();
      const attempt = { attempt: 1, started_at: new Date().toISOString(), duration_ms: 1, http_status: 500, error: `${B_MARK}?` };
      await world.byA(() => writes.recordAttempts(world.a.id, bPending.id, bPending.createdAt, [attempt]));
      const outcome = Object.assign(new Execution(), {
        id: bPending.id,
        tenantId: world.a.id,
        actionId: world.a.actions.shared.id,
        actionName: 'shared',
        status: 'succeeded',
        httpStatus: 200,
        result: 'taken',
        error: '',
        durationMs: 1,
        attempts: 1,
        attemptLog: [attempt],
        createdAt: bPending.createdAt,
        replayOf: null,
        payload: 'off',
      });
      expect(await world.byA(() => writes.finish(world.a.id, { execution: outcome }))).toBe(false);
    });

    it('findOfTenant (an MCP task) finds none of B’s for A', async () => {
      expect(await world.byA(() => log.findOfTenant(world.a.id, bPending.id))).toBeUndefined();
    });

    it('runAccepted of A’s execution whose action was deleted before it ran fails it without a call, saying why', async () => {
      const mine = pending(world.a.actions.shared.id);
      expect(await writes.accept(world.a.id, mine, 10, noJob)).toBe(true);
      await services.get(ActionsService).delete(world.a.id, 'shared');
      const job = { tenantId: world.a.id, executionId: mine.id, createdAt: mine.createdAt.toISOString(), actionName: 'shared', parameters: '{}' };
      expect(await world.byA(() => executions.runAccepted(job))).toBe(true);
      expect(await repository.find(world.a.id, mine.id, new Date(0))).toMatchObject({ status: 'failed', error: 'the action was deleted before the execution ran', attempts: 0 });
      expect(receivers.a.calls).toEqual([]);
      // Finished: another run of the same job makes no call and changes nothing.
      expect(await executions.runAccepted(job)).toBe(false);
    });

    it('runAccepted of A’s execution after A was disabled fails it without a call (nothing goes out for a disabled tenant)', async () => {
      const mine = pending(world.a.actions.shared.id);
      expect(await writes.accept(world.a.id, mine, 10, noJob)).toBe(true);
      await services.get(TenancyService).update(world.a.id, { status: 'disabled' });
      const job = { tenantId: world.a.id, executionId: mine.id, createdAt: mine.createdAt.toISOString(), actionName: 'shared', parameters: '{"city":"Oslo"}' };
      expect(await world.byA(() => executions.runAccepted(job))).toBe(true);
      expect(await repository.find(world.a.id, mine.id, new Date(0))).toMatchObject({ status: 'failed', error: 'the tenant was disabled before the execution ran' });
      expect(receivers.a.calls).toEqual([]);
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

    it('the log lists A’s executions of a name B also has, tenant-wide too, and none of a name only B has', async () => {
      const mine = await executions.execute(world.a.id, 'shared', {});
      const query = { limit: 100 };
      // List items carry replay_of (null: not a replay), which execute's answer does not.
      const listed = { executions: [{ ...mine, replay_of: null }], next_cursor: null };
      expect(await world.byA(() => log.list(world.a.id, 'shared', query))).toEqual(listed);
      expect(await world.byA(() => log.list(world.a.id, undefined, query))).toEqual(listed);
      expect(await world.byA(() => log.list(world.a.id, undefined, { ...query, action: 'shared' }))).toEqual(listed);
      await expect(world.byA(() => log.list(world.a.id, 'only_b', query))).rejects.toThrow(ActionNotFoundError);
      await expect(world.byA(() => log.list(world.a.id, undefined, { ...query, action: 'only_b' }))).rejects.toThrow(ActionNotFoundError);
    });

    it('listWithAttempts (the admin log) shows A’s executions of a name B also has, with every status filter, and none of a name only B has', async () => {
      const mine = await executions.execute(world.a.id, 'shared', {});
      const listed = await world.byA(() => log.listWithAttempts(world.a.id, 'shared', { limit: 100 }));
      expect(listed.executions).toEqual([{ ...mine, replay_of: null, attempt_log: [expect.objectContaining({ attempt: 1, http_status: 200 })] }]);
      expect(await world.byA(() => log.listWithAttempts(world.a.id, 'shared', { limit: 100, status: 'succeeded' }))).toEqual(listed);
      expect((await world.byA(() => log.listWithAttempts(world.a.id, 'shared', { limit: 100, status: 'failed' }))).executions).toEqual([]);
      await expect(world.byA(() => log.listWithAttempts(world.a.id, 'only_b', { limit: 100 }))).rejects.toThrow(ActionNotFoundError);
    });

    it('a cursor given to B does not read for A', async () => {
      const cursors = services.get(PageCursors);
      const [bExecution] = (await world.stored(world.b.id)).executions as Array<{ id: string }>;
      const bCursor = cursors.make('executions', world.b.id, ['2099-01-01 00:00:00+00', bExecution.id]);
      await expect(world.byA(() => log.list(world.a.id, undefined, { limit: 10, cursor: bCursor }))).rejects.toThrow(InvalidRequestError);
    });

    it('get (the log lookup) gives A’s execution with its payload, and refuses B’s execution id under either action name', async () => {
      const mine = await executions.execute(world.a.id, 'shared', { city: 'Oslo' });
      const got = await world.byA(() => log.get(world.a.id, 'shared', mine.id));
      expect(got).toMatchObject({ ...mine, replay_of: null, payload: { status: 'kept' } });
      expect(got.payload.request?.body).toContain('"city":"Oslo"');
      for (const id of await bExecutionIds()) {
        await expect(world.byA(() => log.get(world.a.id, 'shared', id))).rejects.toThrow(ExecutionNotFoundError);
        await expect(world.byA(() => log.get(world.a.id, 'only_b', id))).rejects.toThrow(ActionNotFoundError);
        await expect(world.byA(() => executions.replay(world.a.id, 'shared', id))).rejects.toThrow(ExecutionNotFoundError);
      }
      expect(receivers.b.calls).toEqual([]);
    });

    it('stats count A’s executions only, though B ran an action of the same name', async () => {
      await executions.execute(world.a.id, 'shared', {});
      const stats = await world.byA(() => log.stats(world.a.id, undefined));
      expect(stats.hourly.reduce((sum, point) => sum + point.executions, 0)).toBe(1);
      expect(stats.actions).toEqual([expect.objectContaining({ action_name: 'shared', executions: 1 })]);
      expect((await world.byA(() => log.stats(world.a.id, 'shared'))).daily.reduce((sum, point) => sum + point.executions, 0)).toBe(1);
      await expect(world.byA(() => log.stats(world.a.id, 'only_b'))).rejects.toThrow(ActionNotFoundError);
    });
  });
});
