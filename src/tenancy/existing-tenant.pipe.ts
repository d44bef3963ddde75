import { Injectable, PipeTransform } from '@nestjs/common';
import { TenantId } from '../common/tenant-id';
import { TenancyService } from './tenancy.service';

/** `@Param('tenant_id', ExistingTenantPipe)`: the id of an existing tenant, else `404 Tenant not found`. */
@Injectable()
export class ExistingTenantPipe implements PipeTransform<string, Promise<TenantId>> {
  constructor(private readonly tenancy: TenancyService) {}

  transform(id: string): Promise<TenantId> {
    return this.tenancy.requireId(id);
  }
}
