import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantTablesModule } from '../tenancy/tenant-tables';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { TracingModule } from '../tracing/tracing.module';
import { ConsoleSession } from './console-session.entity';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { ConsoleSessionsService } from './console-sessions.service';
import { ManagementAuthGuard } from './management-auth.guard';
import { PortalLink } from './portal-link.entity';

/**
 * Console sessions and portal links, and the guard of the management API that accepts the ADMIN_API_KEY or a
 * session. No routes: `ConsoleAuthHttpModule` has them.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ConsoleSession, PortalLink]), TenantTablesModule, RateLimitModule, TracingModule],
  providers: [ConsoleSessionsRepository, ConsoleSessionsService, ManagementAuthGuard],
  // The guard counts every management request (RequestBudgets): whoever uses it gets the budgets with it.
  exports: [ConsoleSessionsService, ManagementAuthGuard, RateLimitModule],
})
export class ConsoleAuthModule {}
