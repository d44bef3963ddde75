import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ConsoleAuthModule } from '../console-auth/console-auth.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AdminService } from './admin.service';
import { CredentialsAdminController } from './credentials-admin.controller';
import { TenantsAdminController } from './tenants-admin.controller';

@Module({
  imports: [TenancyModule, AuthModule, WebhooksModule, ConsoleAuthModule],
  controllers: [TenantsAdminController, CredentialsAdminController],
  providers: [AdminService],
  exports: [AdminService],
})
export class AdminModule {}
