import { Column, Entity, PrimaryColumn } from 'typeorm';

/** How an execution ended. */
export type FinishedStatus = 'succeeded' | 'failed';
/**
 * An asynchronous execution (`Prefer: respond-async`) is `pending` until a replica takes it up, `running` while its
 * call goes on, then finished; a synchronous one is stored finished.
 */
export type ExecutionStatus = FinishedStatus | 'pending' | 'running';
export const UNFINISHED: readonly ExecutionStatus[] = ['pending', 'running'];
type PayloadState = 'kept' | 'off' | 'none';

/** One try at delivering an execution. */
export interface AttemptRecord {
  attempt: number;
  started_at: string;
  duration_ms: number;
  http_status: number | null;
  error: string;
}

/**
 * One run of an action: the outcome, and every attempt it took. Partitioned by day on `created_at` (the primary
 * key is `(id, created_at)`); its payload, when kept, is in `execution_payloads`.
 */
@Entity('executions')
export class Execution {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'tenant_id' })
  tenantId: string;

  @Column('uuid', { name: 'action_id' })
  actionId: string;

  @Column('varchar', { name: 'action_name', length: 100 })
  actionName: string;

  @Column('varchar', { length: 16 })
  status: ExecutionStatus;

  @Column('integer', { name: 'http_status', nullable: true })
  httpStatus: number | null;

  @Column('text', { nullable: true })
  result: string | null;

  @Column('text')
  error: string;

  @Column('integer', { name: 'duration_ms' })
  durationMs: number;

  @Column('integer')
  attempts: number;

  @Column('jsonb', { name: 'attempt_log' })
  attemptLog: AttemptRecord[];

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  /** The execution this one replayed, if it is a replay. */
  @Column('uuid', { name: 'replay_of', nullable: true })
  replayOf: string | null;

  /** Whether its payload was kept (`kept`), not logged (`off`: payload logging off), or predates payloads (`none`). */
  @Column('varchar', { length: 8 })
  payload: PayloadState;
}
