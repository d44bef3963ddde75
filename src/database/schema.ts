import { InitialSchema1763776800000 } from './migrations/1763776800000-initial-schema';
import { Executions1763780400000 } from './migrations/1763780400000-executions';
import { ConsoleSessions1763791200000 } from './migrations/1763791200000-console-sessions';
import { ReadModelChanges1763870000000 } from './migrations/1763870000000-read-model-changes';
import { ReadModelChangeLog1764316800000 } from './migrations/1764316800000-read-model-change-log';
import { ExecutionLogPartitions1764403200000 } from './migrations/1764403200000-execution-log-partitions';
import { ExecutionReplays1764489600000 } from './migrations/1764489600000-execution-replays';
import { CredentialsRetention1764576000000 } from './migrations/1764576000000-credentials-retention';
import { ExecutionReplayIndex1764650000000 } from './migrations/1764650000000-execution-replay-index';
import { AsyncExecutions1764666000000 } from './migrations/1764666000000-async-executions';
import { IdempotencyKeys1764700000000 } from './migrations/1764700000000-idempotency-keys';

/**
 * Every migration, listed once for the app, the TypeORM command line and the tests. (The entities are registered
 * by the modules that own them, so this folder depends on no feature.)
 */
export const MIGRATIONS = [InitialSchema1763776800000, Executions1763780400000, ConsoleSessions1763791200000, ReadModelChanges1763870000000, ReadModelChangeLog1764316800000, ExecutionLogPartitions1764403200000, ExecutionReplays1764489600000, CredentialsRetention1764576000000, ExecutionReplayIndex1764650000000, AsyncExecutions1764666000000, IdempotencyKeys1764700000000];
