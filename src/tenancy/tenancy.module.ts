import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenancyService } from './tenancy.service';
import { Tenant } from './tenant.entity';
import { TenantsRepository } from './tenants.repository';

@Module({
  imports: [TypeOrmModule.forFeature([Tenant])],
  providers: [TenantsRepository, TenancyService],
  exports: [TenancyService],
})
export class TenancyModule {}
