import { Injectable } from '@nestjs/common';
import { TenantId } from '../common/tenant-id';
import type { DedicatedConnection } from '../database/dedicated-connection';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import {
  EXPIRED_KEYS_SQL,
  LAST_RUN_SQL,
  PURGE_DONE_SQL,
  PURGE_EXECUTIONS_SQL,
  PURGE_QUEUE_SQL,
  PURGE_ROLLUPS_SQL,
  RECORD_RUN_SQL,
  TRY_LOCK_SQL,
  UNLOCK_SQL,
} from './execution-log-maintenance.sql';
import { TENANT_TOTAL } from './rollup-buffer';

/**
 * The statements of the delivery log's upkeep (ExecutionLogMaintenance) besides its partitions': its lock, its
 * bookkeeping, the expired idempotency keys and the purge of deleted actions' history. Each runs on the upkeep's
 * own session (`LogPartitionsRepository.withConnection`), its last parameter: the run's session holds the lock,
 * and nothing a request waits for is taken.
 */
@Injectable()
export class ExecutionLogMaintenanceRepository {
  /** Takes the upkeep's lock for the connection's session; false when another replica holds it. */
  @GenerateSql({ params: [DummyValue.CONNECTION] })
  async tryLock(session: DedicatedConnection): Promise<boolean> {
    const [{ locked }] = await session.query(TRY_LOCK_SQL);
    return locked;
  }

  @GenerateSql({ params: [DummyValue.CONNECTION] })
  async unlock(session: DedicatedConnection): Promise<void> {
    await session.query(UNLOCK_SQL);
  }

  /** When the hourly work last ran; undefined before its first run. */
  @GenerateSql({ params: [DummyValue.CONNECTION] })
  async lastRunAt(session: DedicatedConnection): Promise<Date | undefined> {
    const [row] = await session.query(LAST_RUN_SQL);
    return row?.last_run_at;
  }

  @GenerateSql({ params: [DummyValue.DATE, DummyValue.CONNECTION] })
  async recordRun(at: Date, session: DedicatedConnection): Promise<void> {
    await session.query(RECORD_RUN_SQL, [at]);
  }

  /** Deletes a batch (PURGE_BATCH) of the idempotency keys stored before `cutoff`, oldest first; the count deleted. */
  // A cutoff before any key: the example deletes nothing.
  @GenerateSql({ params: [new Date(0), DummyValue.CONNECTION] })
  async deleteExpiredKeys(cutoff: Date, session: DedicatedConnection): Promise<number> {
    const [{ count }] = await session.query(EXPIRED_KEYS_SQL, [cutoff]);
    return count;
  }

  /** The deleted actions whose history is to go, oldest first; `settled` once `settleSeconds` have passed since. */
  @GenerateSql({ params: [90, DummyValue.CONNECTION] })
  async purgeQueue(settleSeconds: number, session: DedicatedConnection): Promise<Array<{ actionId: string; tenantId: TenantId; settled: boolean }>> {
    const rows = await session.query(PURGE_QUEUE_SQL, [settleSeconds]);
    return rows.map((row) => ({ actionId: row.action_id, tenantId: row.tenant_id, settled: row.settled }));
  }

  /** Deletes a batch (PURGE_BATCH) of the tenant's executions of `actionId`, with their payloads; the count of executions deleted. */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.CONNECTION] })
  async purgeExecutions(tenantId: TenantId, actionId: string, session: DedicatedConnection): Promise<number> {
    const [{ count }] = await session.query(PURGE_EXECUTIONS_SQL, [tenantId, actionId]);
    return count;
  }

  /** Deletes the tenant's rollups of `actionId`, taken off the tenant's totals. */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.CONNECTION] })
  async purgeRollups(tenantId: TenantId, actionId: string, session: DedicatedConnection): Promise<void> {
    for (const statement of PURGE_ROLLUPS_SQL) await session.query(statement, [tenantId, actionId, TENANT_TOTAL]);
  }

  /** The queue's entry of an action whose history is gone. */
  @GenerateSql({ params: [DummyValue.UUID, DummyValue.CONNECTION] })
  async purgeDone(actionId: string, session: DedicatedConnection): Promise<void> {
    await session.query(PURGE_DONE_SQL, [actionId]);
  }
}
