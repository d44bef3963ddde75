import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { Tenant } from './tenant.entity';

@Injectable()
export class TenantsRepository {
  private readonly tenants: Repository<Tenant>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.tenants = dataSource.getRepository(Tenant);
  }

  findById(id: string): Promise<Tenant | null> {
    return this.tenants.findOneBy({ id });
  }

  findAll(): Promise<Tenant[]> {
    return this.tenants.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  insert(tenant: Tenant): Promise<unknown> {
    return this.tenants.insert(tenant);
  }

  save(tenant: Tenant): Promise<Tenant> {
    return this.tenants.save(tenant);
  }
}
