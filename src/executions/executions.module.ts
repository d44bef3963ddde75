import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActionsModule } from '../actions/actions.module';
import { MetricsModule } from '../metrics/metrics.module';
import { TracingModule } from '../tracing/tracing.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { Execution } from './execution.entity';
import { ExecutionsRepository } from './executions.repository';
import { ExecutionsService } from './executions.service';
import { ParameterValidators } from './parameter-validators';

/** Running actions and their stored log, as services without routes. */
@Module({
  imports: [TypeOrmModule.forFeature([Execution]), ActionsModule, WebhooksModule, TracingModule, MetricsModule],
  providers: [ExecutionsRepository, ExecutionsService, ParameterValidators],
  exports: [ExecutionsService],
})
export class ExecutionsModule {}
