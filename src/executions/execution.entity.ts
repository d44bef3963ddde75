import { Column, Entity, PrimaryColumn } from 'typeorm';

export type ExecutionStatus = 'succeeded' | 'failed';

/** One try at delivering an execution. */
export interface AttemptRecord {
  attempt: number;
  started_at: string;
  duration_ms: number;
  http_status: number | null;
  error: string;
}

/** One run of an action: the outcome, and every attempt it took. */
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
}
