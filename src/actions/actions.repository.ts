import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryFailedError, Repository, type QueryDeepPartialEntity } from 'typeorm';
import { TenantId } from '../common/tenant-id';
import { hotRead } from '../database/hot-read';
import { Tenant } from '../tenancy/tenant.entity';
import { Action } from './action.entity';
import { ACTION_BY_NAME_SQL, ACTIONS_OF_TENANT_SQL } from './actions.sql';

export type InsertOutcome = 'created' | 'name_taken' | 'limit_reached';
export type ActionChanges = Partial<Pick<Action, 'description' | 'webhookUrl' | 'jsonSchema'>>;
// TypeORM's deep-partial type cannot describe an arbitrary JSON object column; the casts below say only that.

const UNIQUE_VIOLATION = '23505';

// The reads every bearer request makes are written by hand: TypeORM's query builder cost more CPU than the
// query itself (11 % of the service's time under GET /actions/{name} load). Writes keep the repository API.

interface ActionRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  json_schema: Record<string, unknown>;
  webhook_url: string;
  created_at: Date;
  updated_at: Date;
}

function toAction(row: ActionRow): Action {
  return Object.assign(new Action(), {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    description: row.description,
    jsonSchema: row.json_schema,
    webhookUrl: row.webhook_url,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

@Injectable()
export class ActionsRepository {
  private readonly actions: Repository<Action>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.actions = dataSource.getRepository(Action);
  }

  async listByTenant(tenantId: TenantId): Promise<Action[]> {
    const rows = await hotRead<ActionRow>(this.dataSource, ACTIONS_OF_TENANT_SQL, [tenantId]);
    return rows.map(toAction);
  }

  async findByName(tenantId: TenantId, name: string): Promise<Action | null> {
    const rows = await hotRead<ActionRow>(this.dataSource, ACTION_BY_NAME_SQL, [tenantId, name]);
    return rows.length > 0 ? toAction(rows[0]) : null;
  }

  countByTenant(tenantId: TenantId): Promise<number> {
    return this.actions.countBy({ tenantId });
  }

  /**
   * Inserts unless the name is taken or the tenant is at `limit`. The tenant row is locked for the check and
   * the insert, so concurrent creates can neither share a name nor overshoot the quota; the unique constraint
   * backs the name check up.
   */
  async insertWithinLimit(tenantId: TenantId, action: Action, limit: number): Promise<InsertOutcome> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        await manager.getRepository(Tenant).createQueryBuilder('tenant').setLock('pessimistic_write').where({ id: tenantId }).getOne();
        const actions = manager.getRepository(Action);
        if (await actions.existsBy({ tenantId, name: action.name })) return 'name_taken';
        if ((await actions.countBy({ tenantId })) >= limit) return 'limit_reached';
        await actions.insert(action as QueryDeepPartialEntity<Action>);
        return 'created';
      });
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === UNIQUE_VIOLATION) return 'name_taken';
      throw error;
    }
  }

  /** Applies `changes`; null when the action does not exist (any more). */
  async update(tenantId: TenantId, name: string, changes: ActionChanges, at: Date): Promise<Action | null> {
    const result = await this.actions.update({ tenantId, name }, { ...changes, updatedAt: at } as QueryDeepPartialEntity<Action>);
    return result.affected ? this.findByName(tenantId, name) : null;
  }

  async delete(tenantId: TenantId, name: string): Promise<boolean> {
    const result = await this.actions.delete({ tenantId, name });
    return (result.affected ?? 0) > 0;
  }
}
