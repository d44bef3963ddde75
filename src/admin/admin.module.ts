import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ConsoleAuthModule } from '../console-auth/console-auth.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AdminService } from './admin.service';
import { CredentialsRetention } from './credentials-retention';

/** The management operations (`AdminService`), without routes: what an admin panel's backend imports. */
@Module({
  imports: [TenancyModule, AuthModule, WebhooksModule, ConsoleAuthModule],
  providers: [AdminService, CredentialsRetention],
  exports: [AdminService],
})
export class AdminModule {}
