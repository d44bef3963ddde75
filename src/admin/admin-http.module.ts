import { Module } from '@nestjs/common';
import { ConsoleAuthModule } from '../console-auth/console-auth.module';
import { AdminModule } from './admin.module';
import { CredentialsAdminController } from './credentials-admin.controller';
import { TenantsAdminController } from './tenants-admin.controller';

/** The management API (`/api/v1/admin/...`) behind the admin key or a console session (ManagementAuthGuard). */
@Module({
  imports: [AdminModule, ConsoleAuthModule],
  controllers: [TenantsAdminController, CredentialsAdminController],
})
export class AdminHttpModule {}
