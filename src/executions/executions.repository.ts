import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Pool } from 'pg';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThan, QueryFailedError } from 'typeorm';
import { BatchQueue, ItemFailed } from '../common/batch-queue';
import { asyncCommitPool } from '../database/async-commit-pool';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { DatabasePool } from '../database/database-pool';
import { DatabaseSettings } from '../database/database-settings';
import { globalStatement } from '../database/statement';
import { TenantId } from '../common/tenant-id';
import { TenantScopedRepository } from '../tenancy/tenant-scoped-repository';
import { Execution, ExecutionStatus } from './execution.entity';

const FOREIGN_KEY_VIOLATION = '23503';
/** Every column of `executions`, in the order the INSERT gives them (test/hand-written-sql.e2e-spec.ts checks the list). */
export const COLUMNS = 'id, tenant_id, action_id, action_name, status, http_status, result, error, duration_ms, attempts, attempt_log, created_at';
const PER_ROW = COLUMNS.split(', ').length;
const MAX_BATCH = 100;

/** `stored`, or `action_gone` when the action was deleted while it ran (its history went with it). */
export type InsertResult = 'stored' | 'action_gone';

@Injectable()
export class ExecutionsRepository implements OnApplicationShutdown {
  private readonly executions: TenantScopedRepository<Execution>;
  /** Outcomes are a delivery log: written with asynchronous commits where the database allows a second pool. */
  private readonly logPool?: Pool;
  /** Executions finishing together are stored with one multi-row INSERT (see BatchQueue). */
  private readonly inserts = new BatchQueue<Execution, InsertResult>((batch) => this.insertBatch(batch), MAX_BATCH);

  constructor(
    @InjectDataSource() dataSource: DataSource,
    settings: DatabaseSettings,
    private readonly pool: DatabasePool,
  ) {
    this.executions = TenantScopedRepository.of(dataSource, Execution);
    this.logPool = asyncCommitPool(settings);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.logPool?.end();
  }

  @GenerateSql({
    params: [
      {
        id: DummyValue.UUID,
        tenantId: DummyValue.TENANT_ID,
        actionId: DummyValue.UUID,
        actionName: DummyValue.STRING,
        status: 'succeeded',
        httpStatus: 200,
        result: '{}',
        error: '',
        durationMs: 1,
        attempts: 1,
        attemptLog: [],
        createdAt: DummyValue.DATE,
      },
    ],
  })
  insert(execution: Execution): Promise<InsertResult> {
    return this.inserts.add(execution);
  }

  /** Newest first; only those of `status` when given. */
  @GenerateSql({ name: 'every status', params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.LIMIT] }, { name: 'one status', params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.LIMIT, 'failed'] })
  listByAction(tenantId: TenantId, actionId: string, limit: number, status?: ExecutionStatus): Promise<Execution[]> {
    const where = status ? { actionId, status } : { actionId };
    return this.executions.for(tenantId).find({ where, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID, DummyValue.UUID] })
  findByActionAndId(tenantId: TenantId, actionId: string, id: string): Promise<Execution | null> {
    return this.executions.for(tenantId).findOneBy({ actionId, id });
  }

  @GenerateSql({ params: [DummyValue.DATE] })
  async deleteOlderThan(cutoff: Date): Promise<number> {
    const result = await this.executions.acrossTenants('retention ends every tenant\'s old executions').delete({ createdAt: LessThan(cutoff) });
    return result.affected ?? 0;
  }

  /**
   * One INSERT for the whole batch. If it fails, each row is tried on its own, so one row whose action was
   * deleted meanwhile (a foreign-key violation) fails no other; any other error fails the row it belongs to.
   */
  private async insertBatch(batch: Execution[]): Promise<Array<InsertResult | ItemFailed>> {
    try {
      await this.insertRows(batch);
      return batch.map(() => 'stored');
    } catch (error) {
      if (batch.length === 1) return [actionGoneOrFailed(error)];
    }
    const results: Array<InsertResult | ItemFailed> = [];
    for (const execution of batch) {
      try {
        await this.insertRows([execution]);
        results.push('stored');
      } catch (error) {
        results.push(actionGoneOrFailed(error));
      }
    }
    return results;
  }

  private async insertRows(rows: Execution[]): Promise<void> {
    const values: unknown[] = [];
    const tuples = rows.map((row, index) => {
      values.push(
        row.id,
        row.tenantId,
        row.actionId,
        row.actionName,
        row.status,
        row.httpStatus,
        row.result,
        row.error,
        row.durationMs,
        row.attempts,
        JSON.stringify(row.attemptLog),
        row.createdAt,
      );
      const base = index * PER_ROW;
      return `(${Array.from({ length: PER_ROW }, (_, column) => `$${base + column + 1}`).join(', ')})`;
    });
    const insert = globalStatement<unknown[]>(
      'executions finishing together are stored in one INSERT, whatever their tenants; each row carries its own',
      `INSERT INTO executions (${COLUMNS}) VALUES ${tuples.join(', ')}`,
    );
    await (this.logPool ? this.logPool.query(insert.text, values) : this.pool.query(insert, values));
  }
}

function actionGoneOrFailed(error: unknown): InsertResult | ItemFailed {
  const driverError = error instanceof QueryFailedError ? error.driverError : error;
  const foreignKey = (driverError as { code?: string } | undefined)?.code === FOREIGN_KEY_VIOLATION;
  return foreignKey ? 'action_gone' : new ItemFailed(error);
}
