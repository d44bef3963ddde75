import { Injectable } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { compactJson, keepWrittenText, writtenText } from '../common/json-text';
import { TenantId } from '../common/tenant-id';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { DatabasePool } from '../database/database-pool';
import { ReadModel } from '../database/read-model';
import { JsonRow, ReadModelQuery } from '../database/read-through-cache';
import { TenantScopedRepository } from '../tenancy/tenant-scoped-repository';
import { TenantTables } from '../tenancy/tenant-tables';
import { Action } from './action.entity';
import { ACTION_BY_NAME_SQL, ACTIONS_OF_TENANT_SQL, ActionRow, INSERT_ACTION_SQL, SET_PAYLOAD_LOGGING_SQL, UPDATE_ACTION_SQL } from './actions.sql';

type InsertOutcome = 'created' | 'name_taken' | 'limit_reached';
export type ActionChanges = Partial<Pick<Action, 'description' | 'webhookUrl' | 'jsonSchema'>>;

const UNIQUE_VIOLATION = '23505';

// The read model's load and the name lookup are written by hand: TypeORM's query builder cost more CPU than the
// query itself (11 % of the service's time under GET /actions/{name} load, when every request read an action).
// So are the insert and the update, which write `json_schema` as the text it was sent as (json-text.ts): TypeORM
// would write JSON.stringify of the parsed object, integer-like keys first and every number respelled.

/** A tenant's actions ordered by name: what the read model keeps (ActionsService), its rows read as JSON. */
export const ACTIONS_OF_TENANT: ReadModelQuery<Action[], TenantId> = {
  statement: ACTIONS_OF_TENANT_SQL,
  decode: (rows) => rows.map((row) => toAction(fromJson(row))),
};

/** A row as the read model's JSON spells it: the timestamps as text. */
function fromJson(row: JsonRow): ActionRow {
  const action = row as unknown as Omit<ActionRow, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string };
  return { ...action, created_at: new Date(action.created_at), updated_at: new Date(action.updated_at) };
}

function toAction(row: ActionRow): Action {
  return Object.assign(new Action(), {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    description: row.description,
    jsonSchema: parseWritten(row.json_schema),
    webhookUrl: row.webhook_url,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    payloadLogging: row.payload_logging,
  });
}

/** A stored `json_schema`: the object, with the text it was written as recorded beside it. */
function parseWritten(text: string): Record<string, unknown> {
  const written = compactJson(text);
  return keepWrittenText(JSON.parse(written) as Record<string, unknown>, written);
}

@Injectable()
export class ActionsRepository {
  private readonly actions: TenantScopedRepository<Action>;

  constructor(
    private readonly tables: TenantTables,
    private readonly pool: DatabasePool,
    private readonly readModel: ReadModel,
  ) {
    this.actions = tables.of(Action);
  }

  /** The tenant's actions ordered by name, read as the read model reads them (ACTIONS_OF_TENANT), now. */
  @GenerateSql({ params: [DummyValue.TENANT_ID] })
  actionsOfTenant(tenantId: TenantId): Promise<Action[]> {
    return this.readModel.read(ACTIONS_OF_TENANT, tenantId);
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.STRING] })
  async findByName(tenantId: TenantId, name: string): Promise<Action | null> {
    const rows = await this.pool.query(ACTION_BY_NAME_SQL, [tenantId, name]);
    return rows.length > 0 ? toAction(rows[0]) : null;
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID] })
  countByTenant(tenantId: TenantId): Promise<number> {
    return this.actions.for(tenantId).countBy();
  }

  /**
   * Inserts unless the name is taken or the tenant is at `limit`. The tenant row is locked for the check and
   * the insert, so concurrent creates can neither share a name nor overshoot the quota; the unique constraint
   * backs the name check up.
   */
  @GenerateSql({
    params: [
      DummyValue.TENANT_ID,
      { id: DummyValue.UUID, tenantId: DummyValue.TENANT_ID, name: DummyValue.STRING, description: DummyValue.STRING, jsonSchema: {}, webhookUrl: 'https://example.com/', createdAt: DummyValue.DATE, updatedAt: DummyValue.DATE },
      DummyValue.LIMIT,
    ],
  })
  async insertWithinLimit(tenantId: TenantId, action: Action, limit: number): Promise<InsertOutcome> {
    try {
      return await this.tables.withLock(tenantId, async (transaction) => {
        const actions = transaction.rows(Action);
        if (await actions.existsBy({ name: action.name })) return 'name_taken';
        if ((await actions.countBy()) >= limit) return 'limit_reached';
        await transaction.execute(INSERT_ACTION_SQL, [
          tenantId,
          action.id,
          action.name,
          action.description,
          writtenText(action.jsonSchema),
          action.webhookUrl,
          action.createdAt,
          action.updatedAt,
          action.payloadLogging ?? true,
        ]);
        return 'created';
      });
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === UNIQUE_VIOLATION) return 'name_taken';
      throw error;
    }
  }

  /**
   * Turns the delivery log's payload logging of the action on or off. Not a change of the action's definition:
   * `updated_at` stays. Null when the action does not exist.
   */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.STRING, false] })
  async setPayloadLogging(tenantId: TenantId, name: string, on: boolean): Promise<Action | null> {
    const rows = await this.pool.query(SET_PAYLOAD_LOGGING_SQL, [tenantId, name, on]);
    return rows.length > 0 ? toAction(rows[0]) : null;
  }

  /** Applies `changes`; null when the action does not exist (any more). */
  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.STRING, { description: DummyValue.STRING }, DummyValue.DATE] })
  async update(tenantId: TenantId, name: string, changes: ActionChanges, at: Date): Promise<Action | null> {
    const { description = null, webhookUrl = null, jsonSchema } = changes;
    const schema = jsonSchema === undefined ? null : writtenText(jsonSchema);
    const rows = await this.pool.query(UPDATE_ACTION_SQL, [tenantId, name, description, webhookUrl, schema, at]);
    return rows.length > 0 ? toAction(rows[0]) : null;
  }

  @GenerateSql({ params: [DummyValue.TENANT_ID, DummyValue.STRING] })
  async delete(tenantId: TenantId, name: string): Promise<boolean> {
    return (await this.actions.for(tenantId).delete({ name })) > 0;
  }
}
