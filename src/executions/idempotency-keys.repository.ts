import { Injectable } from '@nestjs/common';
import { TenantId } from '../common/tenant-id';
import { DatabasePool } from '../database/database-pool';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { prepared } from '../database/statement';
import { tenantStatement } from '../tenancy/tenant-statement';
import { ExecutionLogPools } from './execution-log-pools';

/** What a key stands for: the execution it made, and whether that was accepted to run in the background. */
export interface KeyedExecution {
  executionId: string;
  executionCreatedAt: Date;
  respondAsync: boolean;
}

/** A key as stored: besides its execution, the request it was first sent with and how long its first run holds it. */
export interface StoredKey extends KeyedExecution {
  fingerprint: Buffer;
  leasedUntil: Date;
}

/** A key to claim for a new execution, at `now`, held by its run until `leasedUntil`. */
export interface KeyClaim extends KeyedExecution {
  fingerprint: Buffer;
  now: Date;
  leasedUntil: Date;
  /** A key stored before this is expired: claimed anew as if it were not there. */
  expiredBefore: Date;
}

interface KeyRow {
  fingerprint: Buffer;
  execution_id: string;
  execution_created_at: Date;
  respond_async: boolean;
  leased_until: Date;
}

const KEY_COLUMNS = 'fingerprint, execution_id, execution_created_at, respond_async, leased_until';
/**
 * The claim: a new key is inserted, an expired one (older than `$9`, not deleted yet by the maintenance) is taken
 * over as if new; a live one is left as it is and nothing is returned. Prepared, and committed asynchronously where
 * the database allows (ExecutionLogPools.writeReturning): it is on every keyed execute's path before the call.
 */
const CLAIM_SQL = prepared(tenantStatement<
  [key: string, fingerprint: Buffer, executionId: string, executionCreatedAt: Date, respondAsync: boolean, now: Date, leasedUntil: Date, expiredBefore: Date],
  { execution_id: string }
>(
  `INSERT INTO idempotency_keys (tenant_id, idempotency_key, fingerprint, execution_id, execution_created_at, respond_async, created_at, leased_until) ` +
    `VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (tenant_id, idempotency_key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, ` +
    `execution_id = EXCLUDED.execution_id, execution_created_at = EXCLUDED.execution_created_at, respond_async = EXCLUDED.respond_async, ` +
    `created_at = EXCLUDED.created_at, leased_until = EXCLUDED.leased_until WHERE idempotency_keys.created_at < $9 RETURNING execution_id`,
));
const FIND_SQL = tenantStatement<[key: string], KeyRow>(`SELECT ${KEY_COLUMNS} FROM idempotency_keys WHERE tenant_id = $1 AND idempotency_key = $2`);
/**
 * A lease that ran out by `now` (its run stopped before storing anything) taken over; of two retries taking it over
 * at once, the second finds the first's new lease (the row is locked, then checked again) and gets nothing.
 */
const TAKE_OVER_SQL = tenantStatement<[key: string, now: Date, newLease: Date, respondAsync: boolean], { execution_id: string }>(
  `UPDATE idempotency_keys SET leased_until = $4, respond_async = $5 WHERE tenant_id = $1 AND idempotency_key = $2 AND leased_until <= $3 RETURNING execution_id`,
);
const RELEASE_SQL = tenantStatement<[key: string, executionId: string]>(`DELETE FROM idempotency_keys WHERE tenant_id = $1 AND idempotency_key = $2 AND execution_id = $3`);
const KEY_OF_SQL = tenantStatement<[executionId: string], { idempotency_key: string }>(
  `SELECT idempotency_key FROM idempotency_keys WHERE tenant_id = $1 AND execution_id = $2`,
);

/**
 * Idempotency keys (`idempotency_keys`, docs/decisions.md "Idempotency keys"), each read and written as its
 * tenant's. A key is claimed in the database before its call is made, so every replica agrees on who runs it. The
 * claim is committed asynchronously on a PostgreSQL server (on the delivery log's connections, ExecutionLogPools):
 * other connections see it as soon as it returns; only a crash of the database server in the fraction of a second
 * before its WAL record is flushed could lose it. Everything else here commits synchronously.
 */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(
    private readonly pool: DatabasePool,
    private readonly logPools: ExecutionLogPools,
  ) {}

  /** True when the key is now this claim's (new, or expired and taken over); false when a live key holds it. */
  @GenerateSql({
    params: [
      DummyValue.TENANT_ID,
      DummyValue.STRING,
      {
        fingerprint: Buffer.alloc(32),
        executionId: DummyValue.UUID,
        executionCreatedAt: DummyValue.DATE,
        respondAsync: false,
        now: DummyValue.DATE,
        leasedUntil: DummyValue.DATE,
        expiredBefore: DummyValue.DATE,
      },
    ],
  })
  async claim(tenantId: TenantId, key: string, claim: KeyClaim): Promise<boolean> {
    const { fingerprint, executionId, executionCreatedAt, respondAsync, now, leasedUntil, expiredBefore } = claim;
    const rows = await this.logPools.writeReturning(CLAIM_SQL, [tenantId, key, fingerprint, executionId, executionCreatedAt, respondAsync, now, leasedUntil, expiredBefore]);
    return rows.length > 0;
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.STRING] })
  async find(tenantId: TenantId, key: string): Promise<StoredKey | undefined> {
    const [row] = await this.pool.query(FIND_SQL, [tenantId, key]);
    return (
      row && {
        fingerprint: Buffer.from(row.fingerprint),
        executionId: row.execution_id,
        executionCreatedAt: row.execution_created_at,
        respondAsync: row.respond_async,
        leasedUntil: row.leased_until,
      }
    );
  }

  /** True when the key's run was taken over (its lease had run out by `now`, and no other retry took it first). */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.STRING, DummyValue.DATE, false, DummyValue.DATE] })
  async takeOver(tenantId: TenantId, key: string, now: Date, respondAsync: boolean, newLease: Date): Promise<boolean> {
    return (await this.pool.query(TAKE_OVER_SQL, [tenantId, key, now, newLease, respondAsync])).length > 0;
  }

  /** The key is let go (its execution was refused before anything was sent), if it is still `executionId`'s. */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.STRING, DummyValue.UUID] })
  async release(tenantId: TenantId, key: string, executionId: string): Promise<void> {
    await this.pool.query(RELEASE_SQL, [tenantId, key, executionId]);
  }

  /** The key an execution was made under, while it is kept. */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.UUID] })
  async keyOf(tenantId: TenantId, executionId: string): Promise<string | null> {
    const [row] = await this.pool.query(KEY_OF_SQL, [tenantId, executionId]);
    return row?.idempotency_key ?? null;
  }
}
