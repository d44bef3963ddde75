import { Injectable } from '@nestjs/common';
import { IdGenerator } from '../common/id-generator';
import { Clock } from '../common/clock';
import { asTenantId, TenantId } from '../common/tenant-id';
import { PageCursors } from '../common/page-cursors';
import { NewestFirstList, Page, PageQuery } from '../common/paged-list';
import { isUuid } from '../common/uuid';
import { ReadModel } from '../database/read-model';
import { AsOf } from '../database/read-scope';
import { ReadThroughCache } from '../database/read-through-cache';
import { TenantDto } from './tenant.dto';
import { Tenant, TenantStatus } from './tenant.entity';
import { TenantDisabledError, TenantNotFoundError } from './tenancy.errors';
import { TENANT_STATUS, TenantChanges, TenantsRepository } from './tenants.repository';

/** What a tenant's status costs the read model's memory, key and bookkeeping included (measured: docs/decisions.md). */
const STATUS_BYTES = 170;
/** The scope of the tenant list's cursors: only operators list tenants. */
const OPERATORS = 'operator';

/** Tenants: created, renamed, disabled and re-enabled by the admin panel. Exported for the admin backend. */
@Injectable()
export class TenancyService {
  /** Every tenant's status, for the bearer check, served from memory and kept exact across replicas (ReadModel). */
  private readonly statuses: ReadThroughCache<string, TenantStatus | null>;
  private readonly pages: NewestFirstList;

  constructor(
    private readonly tenants: TenantsRepository,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    readModel: ReadModel,
    cursors: PageCursors,
  ) {
    this.pages = new NewestFirstList(cursors, 'tenants');
    this.statuses = readModel.cache({ name: 'tenants', table: 'tenants', sizeOf: () => STATUS_BYTES, query: TENANT_STATUS });
  }

  async create(name: string): Promise<TenantDto> {
    const now = this.clock.now();
    const tenant = Object.assign(new Tenant(), { id: this.ids.next(), name, status: 'active', createdAt: now, updatedAt: now });
    await this.tenants.insert(tenant);
    return this.map(tenant);
  }

  /** A page of the tenants, newest first (NewestFirstList: `limit`, `cursor`); for operators only. */
  async list(query?: PageQuery): Promise<Page<TenantDto>> {
    const { limit, after } = this.pages.open(OPERATORS, query);
    const page = this.pages.close(OPERATORS, await this.tenants.listPage(limit + 1, after), limit);
    return { items: page.items.map((tenant) => this.map(tenant)), nextCursor: page.nextCursor };
  }

  async get(id: string): Promise<TenantDto> {
    return this.map(await this.require(id));
  }

  async update(id: string, changes: { name?: string; status?: TenantStatus }): Promise<TenantDto> {
    // Only the fields given are written, and only if one differs: updated_at keeps saying when something last
    // changed, and a concurrent change to another field (a rename while the tenant is disabled) stays.
    const fields: TenantChanges = {};
    if (changes.name !== undefined) fields.name = changes.name;
    if (changes.status !== undefined) fields.status = changes.status;
    const tenant = isUuid(id) ? await this.tenants.update(id, fields, this.clock.now()) : null;
    if (!tenant) throw new TenantNotFoundError();
    return this.map(tenant);
  }

  /** The id of an existing tenant, checked: the only way the admin side obtains a `TenantId`. */
  async requireId(id: string): Promise<TenantId> {
    return asTenantId((await this.require(id)).id);
  }

  /** The id of an existing tenant that is active: a disabled one is TenantDisabledError. */
  async requireActiveId(id: string): Promise<TenantId> {
    const tenant = await this.require(id);
    if (tenant.status !== 'active') throw new TenantDisabledError();
    return asTenantId(tenant.id);
  }

  /** Whether tenant `id` exists and is active; a disabled tenant is refused at the next request on every replica. */
  async isActive(id: string, asOf?: AsOf): Promise<boolean> {
    return isUuid(id) && (await this.statuses.get(id, asOf)) === 'active';
  }

  private async require(id: string): Promise<Tenant> {
    const tenant = isUuid(id) ? await this.tenants.findById(id) : null;
    if (!tenant) throw new TenantNotFoundError();
    return tenant;
  }

  private map(tenant: Tenant): TenantDto {
    return {
      id: tenant.id,
      name: tenant.name,
      status: tenant.status,
      created_at: tenant.createdAt.toISOString(),
      updated_at: tenant.updatedAt.toISOString(),
    };
  }
}
