import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { ConsoleAuthModule } from './console-auth.module';
import { ConsoleSessionController } from './console-session.controller';
import { PortalLinksController } from './portal-links.controller';

/** Sign-in, sign-out and portal links under /api/v1/admin. */
@Module({
  imports: [ConsoleAuthModule, TenancyModule, RateLimitModule],
  controllers: [ConsoleSessionController, PortalLinksController],
})
export class ConsoleAuthHttpModule {}
