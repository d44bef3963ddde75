import { PageCursors } from '../common/page-cursors';
import { Page, PagedList, PageQuery } from '../common/paged-list';
import { Injectable } from '@nestjs/common';
import { IdGenerator } from '../common/id-generator';
import { Clock } from '../common/clock';
import { InvalidRequestError } from '../common/common.errors';
import { writtenText } from '../common/json-text';
import { TenantId } from '../common/tenant-id';
import { AppConfig } from '../config/app-config';
import type { DeepReadonly } from '../database/deep-readonly';
import { ReadModel } from '../database/read-model';
import { AsOf } from '../database/read-scope';
import { ReadThroughCache } from '../database/read-through-cache';
import { TraceParent } from '../tracing/trace-context';
import { DestinationGuard } from '../webhooks/destination-guard';
import { WebhookService } from '../webhooks/webhook.service';
import { parseWebhookUrl } from '../webhooks/webhook-url';
import { Action } from './action.entity';
import { isActionName } from './action-name';
import { ActionLimitReachedError, ActionNameTakenError, ActionNotFoundError } from './actions.errors';
import { ActionChanges, ACTIONS_OF_TENANT, ActionsRepository } from './actions.repository';
import { actionJson } from './dto/action-json';
import { ActionDto } from './dto/action.response';
import { CreateActionRequest } from './dto/create-action.request';
import { UpdateActionRequest } from './dto/update-action.request';
import { JsonSchemaCompiler } from './json-schema-compiler';

export interface ExecutableAction {
  id: string;
  /** Whose action it is: work that runs in the schema worker takes turns by tenant. */
  tenantId: string;
  name: string;
  webhookUrl: string;
  jsonSchema: Record<string, unknown>;
  version: string;
  /** Whether its executions' payloads are kept in the delivery log. */
  payloadLogging: boolean;
}

/**
 * A tenant's actions as the read model keeps them: what GET, the list and executions serve. Shared by every
 * request until the tenant's actions change, so the cache hands it out deeply read-only (and it is frozen too,
 * for JavaScript callers of the exported services).
 */
interface TenantActions {
  list: readonly ActionDto[];
  byName: ReadonlyMap<string, { dto: ActionDto; executable: ExecutableAction }>;
  /** The JSON size of the definitions, what the read model's memory budget counts. */
  bytes: number;
}

/** Registering and managing a tenant's actions (spec 4, contract "Actions"). Exported for the admin backend. */
@Injectable()
export class ActionsService {
  /** Every tenant's actions, served from memory and kept exact across replicas (ReadModel). */
  private readonly catalog: ReadThroughCache<TenantId, TenantActions>;
  private readonly pages: PagedList;

  constructor(
    private readonly actions: ActionsRepository,
    private readonly schemas: JsonSchemaCompiler,
    private readonly destinations: DestinationGuard,
    private readonly webhooks: WebhookService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    readModel: ReadModel,
    cursors: PageCursors,
  ) {
    this.pages = new PagedList(cursors, 'actions', 1);
    this.catalog = readModel.cache({
      name: 'actions',
      table: 'actions',
      // In memory a tenant's actions cost about 4 times their JSON (objects, the parsed schema, the JSON kept for
      // answers), plus its entry (measured: docs/decisions.md, "Memory is bounded").
      sizeOf: (actions) => 400 + 4 * actions.bytes,
      query: { statement: ACTIONS_OF_TENANT.statement, decode: (rows, tenantId) => this.catalogOf(ACTIONS_OF_TENANT.decode(rows, tenantId)) },
      // A bearer request reads its tenant's status, then its actions: loaded together, a cold one is one round trip.
      loadsWith: 'tenants',
    });
  }

  /**
   * Every action of the tenant, ordered by name, as of `asOf` (see AsOf; by default, the call). The list is
   * shared between requests, so its type is deeply read-only.
   */
  async list(tenantId: TenantId, asOf?: AsOf): Promise<DeepReadonly<ActionDto[]>> {
    return (await this.catalog.get(tenantId, asOf)).list;
  }

  /**
   * A page of the tenant's actions, by name (PagedList: `limit`, `cursor`), for the management API; the gateway's
   * `GET /actions` lists them all (the contract's, bounded by ACTIONS_PER_TENANT). The position is the last name
   * given, so an action added or deleted between pages shifts none of the others.
   */
  async listPage(tenantId: TenantId, query?: PageQuery): Promise<Page<DeepReadonly<ActionDto>>> {
    const { limit, after } = this.pages.open(tenantId, query);
    const actions = await this.list(tenantId);
    // Names sort bytewise (COLLATE "C"), as JavaScript compares them.
    const start = after === undefined ? 0 : actions.findIndex((action) => action.name > after[0]);
    const rows = start < 0 ? [] : actions.slice(start, start + limit + 1);
    return this.pages.close(tenantId, rows, limit, (action) => [action.name]);
  }

  async get(tenantId: TenantId, name: string, asOf?: AsOf): Promise<DeepReadonly<ActionDto>> {
    return (await this.findServed(tenantId, name, asOf)).dto;
  }

  /** What running an action needs; `version` changes whenever the action does (for caching its validator). */
  async findExecutable(tenantId: TenantId, name: string, asOf?: AsOf): Promise<DeepReadonly<ExecutableAction>> {
    return (await this.findServed(tenantId, name, asOf)).executable;
  }

  /**
   * Checks in the contract's order: body, name taken (409), quota (403), registration test (400). Nothing is
   * stored unless all pass; the final insert re-checks name and quota under a lock. The registration test's call
   * carries `trace` (traceparent).
   */
  async create(tenantId: TenantId, request: CreateActionRequest, trace?: TraceParent): Promise<ActionDto> {
    await this.checkWebhookUrl(request.webhook_url);
    await this.checkJsonSchema(tenantId, request.json_schema);
    if (await this.actions.findByName(tenantId, request.name)) throw new ActionNameTakenError(request.name);
    const limit = this.config.actionsPerTenant;
    if ((await this.actions.countByTenant(tenantId)) >= limit) throw new ActionLimitReachedError(limit);

    await this.webhooks.registrationTest(tenantId, request.name, request.webhook_url, trace);

    const now = this.clock.now();
    const action = Object.assign(new Action(), {
      id: this.ids.next(),
      tenantId,
      name: request.name,
      description: request.description,
      jsonSchema: request.json_schema,
      webhookUrl: request.webhook_url,
      createdAt: now,
      updatedAt: now,
      payloadLogging: true,
    });
    const outcome = await this.actions.insertWithinLimit(tenantId, action, limit);
    if (outcome === 'name_taken') throw new ActionNameTakenError(request.name);
    if (outcome === 'limit_reached') throw new ActionLimitReachedError(limit);
    return this.map(action);
  }

  /** Spec 4.2. A changed webhook URL must pass the registration test before anything is written. */
  async update(tenantId: TenantId, name: string, request: UpdateActionRequest, trace?: TraceParent): Promise<ActionDto> {
    if (request.description === undefined && request.webhook_url === undefined && request.json_schema === undefined) {
      throw new InvalidRequestError('body: at least one of description, webhook_url, json_schema is required');
    }
    const current = isActionName(name) ? await this.actions.findByName(tenantId, name) : null;
    // The URL the action has, sent back (the console sends every field), is no change: it was checked when it was
    // set, maybe under laxer rules than today's, and is not checked or tested again.
    const newUrl = request.webhook_url !== undefined && request.webhook_url !== current?.webhookUrl ? request.webhook_url : undefined;
    if (newUrl !== undefined) await this.checkWebhookUrl(newUrl);
    // Likewise the schema it has, sent back as written: it was checked when it was saved, maybe before today's
    // rules (the mistakes check, the byte limit), and an action saved then must stay editable.
    const schemaChanged = request.json_schema !== undefined && (!current || writtenText(request.json_schema) !== writtenText(current.jsonSchema));
    if (request.json_schema !== undefined && schemaChanged) await this.checkJsonSchema(tenantId, request.json_schema);
    if (!current) throw new ActionNotFoundError();
    if (newUrl !== undefined) await this.webhooks.registrationTest(tenantId, name, newUrl, trace);
    const changes: ActionChanges = {};
    if (request.description !== undefined) changes.description = request.description;
    if (request.webhook_url !== undefined) changes.webhookUrl = request.webhook_url;
    if (request.json_schema !== undefined) changes.jsonSchema = request.json_schema;
    const updated = await this.actions.update(tenantId, name, changes, this.clock.now());
    if (!updated) throw new ActionNotFoundError();
    return this.map(updated);
  }

  /** The action's log settings (not part of its definition: the Action resource does not change). */
  async logSettings(tenantId: TenantId, name: string, asOf?: AsOf): Promise<{ payloadLogging: boolean }> {
    return { payloadLogging: (await this.findExecutable(tenantId, name, asOf)).payloadLogging };
  }

  async setPayloadLogging(tenantId: TenantId, name: string, on: boolean): Promise<{ payloadLogging: boolean }> {
    const updated = isActionName(name) ? await this.actions.setPayloadLogging(tenantId, name, on) : null;
    if (!updated) throw new ActionNotFoundError();
    return { payloadLogging: updated.payloadLogging };
  }

  /**
   * Deletes the action. Its delivery log goes afterwards, in the background (a trigger queues it for
   * ExecutionLogMaintenance), so the request does not wait for a history of any size.
   */
  async delete(tenantId: TenantId, name: string): Promise<void> {
    const deleted = isActionName(name) && (await this.actions.delete(tenantId, name));
    if (!deleted) throw new ActionNotFoundError();
  }

  private async findServed(tenantId: TenantId, name: string, asOf: AsOf | undefined): Promise<{ dto: ActionDto; executable: ExecutableAction }> {
    const found = isActionName(name) ? (await this.catalog.get(tenantId, asOf)).byName.get(name) : undefined;
    if (!found) throw new ActionNotFoundError();
    return found;
  }

  private catalogOf(actions: Action[]): TenantActions {
    const byName = new Map<string, { dto: ActionDto; executable: ExecutableAction }>();
    let bytes = 0;
    const list = actions.map((action) => {
      // Shared by every request until the action changes: frozen, so no caller can change what others read.
      const dto = deepFreeze(this.map(action));
      // Its JSON as GET and the list send it (serialized here once, kept beside the DTO) is what the budget counts.
      bytes += actionJson(dto).length;
      const executable = Object.freeze({
        id: action.id,
        tenantId: action.tenantId,
        name: action.name,
        webhookUrl: action.webhookUrl,
        jsonSchema: dto.json_schema,
        version: `${action.id}@${action.updatedAt.getTime()}`,
        payloadLogging: action.payloadLogging,
      });
      byName.set(action.name, { dto, executable });
      return dto;
    });
    return { list: Object.freeze(list), byName, bytes };
  }

  private async checkWebhookUrl(raw: string): Promise<void> {
    const url = parseWebhookUrl(raw, this.config.webhook.requireHttps);
    if (typeof url === 'string') throw new InvalidRequestError(`webhook_url: ${url}`);
    const refused = await this.destinations.refusedAddressOf(url);
    if (refused) throw new InvalidRequestError(`webhook_url: resolves to a private or reserved address (${refused})`);
  }

  private async checkJsonSchema(tenantId: TenantId, schema: Record<string, unknown>): Promise<void> {
    const mistakes = this.schemas.mistakesIn(schema);
    if (mistakes) throw new InvalidRequestError(mistakes);
    const problem = await this.schemas.problemWith(tenantId, schema);
    if (problem) throw new InvalidRequestError(`json_schema: ${problem}`);
  }

  private map(action: Action): ActionDto {
    return {
      id: action.id,
      tenant_id: action.tenantId,
      name: action.name,
      description: action.description,
      json_schema: action.jsonSchema,
      webhook_url: action.webhookUrl,
      created_at: action.createdAt.toISOString(),
      updated_at: action.updatedAt.toISOString(),
    };
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
