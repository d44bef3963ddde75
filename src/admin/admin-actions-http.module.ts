import { Module } from '@nestjs/common';
import { ActionsModule } from '../actions/actions.module';
import { ConsoleAuthModule } from '../console-auth/console-auth.module';
import { ExecutionsModule } from '../executions/executions.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { TenantActionsAdminController } from './tenant-actions-admin.controller';
import { TenantExecutionsAdminController } from './tenant-executions-admin.controller';

/** A tenant's actions and executions under the management API: what the console's action pages call. */
@Module({
  imports: [ConsoleAuthModule, TenancyModule, ActionsModule, ExecutionsModule, RateLimitModule],
  controllers: [TenantActionsAdminController, TenantExecutionsAdminController],
})
export class AdminActionsHttpModule {}
