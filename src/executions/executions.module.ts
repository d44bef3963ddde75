import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantTablesModule } from '../tenancy/tenant-tables';
import { ActionsModule } from '../actions/actions.module';
import { MetricsModule } from '../metrics/metrics.module';
import { TracingModule } from '../tracing/tracing.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { Execution } from './execution.entity';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { BulkReplays } from './bulk-replays';
import { ExecutionLogMaintenance } from './execution-log-maintenance';
import { ExecutionReplaysRepository } from './execution-replays.repository';
import { ExecutionLogService } from './execution-log.service';
import { ExecutionsRepository } from './executions.repository';
import { ExecutionsService } from './executions.service';
import { ExecutionJobs } from './execution-jobs';
import { AsyncExecutionWorker } from './async-execution-worker';
import { ExecutionLogPartitions } from './log-partitions';
import { ParameterValidators } from './parameter-validators';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { AsyncCommitWrites } from './async-commit-writes';

/** Running actions, now or from the job queue, and their stored log (partitions, retention, rollups), as services without routes. */
@Module({
  imports: [TypeOrmModule.forFeature([Execution]), TenantTablesModule, ActionsModule, WebhooksModule, TracingModule, MetricsModule, RateLimitModule, TenancyModule],
  providers: [ExecutionsRepository, ExecutionsService, ExecutionLogService, ExecutionLogPartitions, ExecutionLogMaintenance, ParameterValidators, ExecutionReplaysRepository, BulkReplays, ExecutionJobs, AsyncExecutionWorker, IdempotencyKeysRepository, AsyncCommitWrites],
  exports: [ExecutionsService, ExecutionLogService, ExecutionLogMaintenance, BulkReplays],
})
export class ExecutionsModule {}
