import { Module } from '@nestjs/common';
import { AdminKeyGuard } from './admin-key.guard';
import { AdminModule } from './admin.module';
import { CredentialsAdminController } from './credentials-admin.controller';
import { TenantsAdminController } from './tenants-admin.controller';

/** The management API (`/api/v1/admin/...`) behind the admin key. */
@Module({
  imports: [AdminModule],
  controllers: [TenantsAdminController, CredentialsAdminController],
  providers: [AdminKeyGuard],
})
export class AdminHttpModule {}
