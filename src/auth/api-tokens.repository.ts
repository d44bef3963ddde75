import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, Repository } from 'typeorm';
import { TenantId } from '../common/tenant-id';
import { Tenant, TenantStatus } from '../tenancy/tenant.entity';
import { ApiToken } from './api-token.entity';

export interface ApiTokenWithTenantStatus {
  token: ApiToken;
  tenantStatus: TenantStatus;
}

@Injectable()
export class ApiTokensRepository {
  private readonly tokens: Repository<ApiToken>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.tokens = dataSource.getRepository(ApiToken);
  }

  insert(token: ApiToken): Promise<unknown> {
    return this.tokens.insert(token);
  }

  listByTenant(tenantId: TenantId): Promise<ApiToken[]> {
    return this.tokens.find({ where: { tenantId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findByTenantAndId(tenantId: TenantId, id: string): Promise<ApiToken | null> {
    return this.tokens.findOneBy({ tenantId, id });
  }

  /** Marks the token revoked; false when it does not exist or was revoked already. */
  async revoke(tenantId: TenantId, id: string, at: Date): Promise<boolean> {
    const result = await this.tokens.update({ tenantId, id, revokedAt: IsNull() }, { revokedAt: at });
    return (result.affected ?? 0) > 0;
  }

  findByHashWithTenantStatus(tokenHash: string): Promise<ApiTokenWithTenantStatus | null> {
    return this.findWithTenantStatus('token.token_hash = :tokenHash', { tokenHash });
  }

  findByIdWithTenantStatus(id: string): Promise<ApiTokenWithTenantStatus | null> {
    return this.findWithTenantStatus('token.id = :id', { id });
  }

  async touchLastUsed(id: string, at: Date): Promise<void> {
    await this.tokens.update({ id }, { lastUsedAt: at });
  }

  private async findWithTenantStatus(where: string, parameters: Record<string, string>): Promise<ApiTokenWithTenantStatus | null> {
    const { entities, raw } = await this.tokens
      .createQueryBuilder('token')
      .innerJoin(Tenant, 'tenant', 'tenant.id = token.tenant_id')
      .addSelect('tenant.status', 'tenant_status')
      .where(where, parameters)
      .getRawAndEntities<{ tenant_status: TenantStatus }>();
    return entities[0] ? { token: entities[0], tenantStatus: raw[0].tenant_status } : null;
  }
}
