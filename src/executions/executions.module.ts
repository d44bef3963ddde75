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
import { ExecutionReadsRepository } from './execution-reads.repository';
import { ExecutionWritesRepository } from './execution-writes.repository';
import { ExecutionRollupsRepository } from './execution-rollups.repository';
import { ExecutionLogPools } from './execution-log-pools';
import { ExecutionLogMaintenanceRepository } from './execution-log-maintenance.repository';
import { ExecutionsService } from './executions.service';
import { ExecutionJobs } from './execution-jobs';
import { AsyncExecutionWorker } from './async-execution-worker';
import { LogPartitionsRepository } from './log-partitions.repository';
import { ParameterValidators } from './parameter-validators';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

/** The delivery log's repositories, one a concern: what a module importing ExecutionsModule (an admin backend) may inject beside the services. */
const LOG_REPOSITORIES = [ExecutionReadsRepository, ExecutionWritesRepository, ExecutionRollupsRepository, LogPartitionsRepository, ExecutionLogMaintenanceRepository];

/** Running actions, now or from the job queue, and their stored log (partitions, retention, rollups), as services without routes. */
@Module({
  imports: [TypeOrmModule.forFeature([Execution]), TenantTablesModule, ActionsModule, WebhooksModule, TracingModule, MetricsModule, RateLimitModule, TenancyModule],
  providers: [
    ...LOG_REPOSITORIES,
    ExecutionLogPools,
    ExecutionsService,
    ExecutionLogService,
    ExecutionLogMaintenance,
    ParameterValidators,
    ExecutionReplaysRepository,
    BulkReplays,
    ExecutionJobs,
    AsyncExecutionWorker,
    IdempotencyKeysRepository,
  ],
  exports: [ExecutionsService, ExecutionLogService, ExecutionLogMaintenance, BulkReplays, ...LOG_REPOSITORIES],
})
export class ExecutionsModule {}
