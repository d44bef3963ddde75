import { Module } from '@nestjs/common';
import { TenancyService } from './tenancy.service';
import { TenantsRepository } from './tenants.repository';

@Module({
  providers: [TenantsRepository, TenancyService],
  exports: [TenancyService],
})
export class TenancyModule {}
