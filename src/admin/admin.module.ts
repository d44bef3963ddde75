import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AdminKeyGuard } from './admin-key.guard';
import { AdminService } from './admin.service';
import { CredentialsAdminController } from './credentials-admin.controller';
import { TenantsAdminController } from './tenants-admin.controller';

@Module({
  imports: [TenancyModule, AuthModule, WebhooksModule],
  controllers: [TenantsAdminController, CredentialsAdminController],
  providers: [AdminService, AdminKeyGuard],
  exports: [AdminService],
})
export class AdminModule {}
