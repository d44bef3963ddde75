import { Logger } from '@nestjs/common';
import type { TenantTables } from '../tenancy/tenant-tables';
import { DatabaseSettings } from '../database/database-settings';
import { DatabasePool } from '../database/database-pool';
import { Execution } from './execution.entity';
import { ExecutionLogPools } from './execution-log-pools';
import { ExecutionRollupsRepository } from './execution-rollups.repository';
import { ExecutionWritesRepository } from './execution-writes.repository';
import { LogPartitionsRepository } from './log-partitions.repository';

function execution(): Execution {
  return Object.assign(new Execution(), {
    id: '019ac4a0-0000-7000-8000-000000000001',
    tenantId: '5a1d0000-0000-4000-8000-000000000002',
    actionId: '5a1d0000-0000-4000-8000-000000000003',
    actionName: 'weather',
    status: 'succeeded',
    httpStatus: 200,
    result: 'ok',
    error: '',
    durationMs: 3,
    attempts: 1,
    attemptLog: [],
    createdAt: new Date('2026-11-27T10:00:00Z'),
    replayOf: null,
    payload: 'off',
  });
}

describe('ExecutionWritesRepository: the log written through a pooler that loses prepared statements', () => {
  it('stores the batch all the same, and writes without prepared statements from then on', async () => {
    const pools = new ExecutionLogPools(new DatabaseSettings('postgres://unused', true, 1, 1_000), {} as DatabasePool, {} as LogPartitionsRepository);
    const rollups = new ExecutionRollupsRepository(pools);
    const repository = new ExecutionWritesRepository({} as DatabasePool, pools, {} as LogPartitionsRepository, {} as TenantTables, rollups);
    const calls: Array<{ named: boolean }> = [];
    const lost = Object.assign(new Error('prepared statement "agw_log_insert" does not exist'), { code: '26000' });
    // The log's own connections (a server's asynchronous-commit pool), standing in for a pooler in transaction mode.
    (pools as unknown as { logPool: unknown }).logPool = {
      query: (statement: unknown) => {
        const named = typeof statement === 'object' && statement !== null && 'name' in statement;
        calls.push({ named });
        return named ? Promise.reject(lost) : Promise.resolve({ rows: [] });
      },
    };
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    await expect(repository.insert({ execution: execution() })).resolves.toBe('stored');
    await expect(repository.insert({ execution: { ...execution(), id: '019ac4a0-0000-7000-8000-000000000002' } as Execution })).resolves.toBe('stored');
    expect(calls).toEqual([{ named: true }, { named: false }, { named: false }]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][1]).toMatch(/lost a prepared statement .* written without prepared statements/);
    warn.mockRestore();
  });
});
