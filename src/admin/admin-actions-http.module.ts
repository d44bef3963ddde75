import { Module } from '@nestjs/common';
import { ActionsModule } from '../actions/actions.module';
import { ConsoleAuthModule } from '../console-auth/console-auth.module';
import { ExecutionsModule } from '../executions/executions.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { TenantActionsAdminController } from './tenant-actions-admin.controller';
import { TenantExecutionsAdminController } from './tenant-executions-admin.controller';
import { TenantLogAdminController } from './tenant-log-admin.controller';

/** A tenant's actions, executions and numbers under the management API: what the console's action and log pages call. */
@Module({
  imports: [ConsoleAuthModule, TenancyModule, ActionsModule, ExecutionsModule, RateLimitModule],
  controllers: [TenantActionsAdminController, TenantExecutionsAdminController, TenantLogAdminController],
})
export class AdminActionsHttpModule {}
