import { FindOptionsOrder, FindOptionsSelect, FindOptionsWhere, QueryDeepPartialEntity, Repository } from 'typeorm';
import { TenantId } from '../common/tenant-id';

/** An entity whose rows belong to a tenant (`tenant_id`; null only for rows of no tenant, as operators' sessions). */
export interface TenantOwned {
  tenantId: string | null;
}

/** What a tenant's query may filter on: anything but the tenant, which the scope supplies. */
type TenantFilter<T> = Omit<FindOptionsWhere<T>, 'tenantId'>;

/** What a tenant's update may change: anything but the tenant (a row never moves to another tenant). */
type TenantChanges<T> = Omit<QueryDeepPartialEntity<T>, 'tenantId'>;

interface TenantFind<T> {
  /** ANDed with the tenant; an array is an OR of filters, each ANDed with the tenant. */
  where?: TenantFilter<T> | TenantFilter<T>[];
  order?: FindOptionsOrder<T>;
  select?: FindOptionsSelect<T>;
  take?: number;
  skip?: number;
}

/**
 * One tenant's rows of an entity. Every query it makes has `tenant_id = <the tenant>` ANDed into its WHERE, and a
 * filter cannot name the tenant, so no call through it can read, change or delete another tenant's row, or forget
 * the tenant: there is no method without it. Get one from `TenantScopedRepository.for(tenantId)`, or from a
 * `TenantTransaction` (tenant-lock.ts).
 */
export class TenantRows<T extends TenantOwned> {
  constructor(
    private readonly repository: Repository<T>,
    readonly tenantId: TenantId,
  ) {}

  find(options: TenantFind<T> = {}): Promise<T[]> {
    return this.repository.find({ ...options, where: this.scoped(options.where ?? this.everyRow()) });
  }

  findOneBy(where: TenantFilter<T>): Promise<T | null> {
    return this.repository.findOneBy(this.scoped(where));
  }

  existsBy(where: TenantFilter<T>): Promise<boolean> {
    return this.repository.existsBy(this.scoped(where));
  }

  countBy(where: TenantFilter<T> | TenantFilter<T>[] = this.everyRow()): Promise<number> {
    return this.repository.countBy(this.scoped(where));
  }

  /** Inserts rows of this tenant; a row of another tenant is a programming error and inserts nothing. */
  async insert(rows: T | T[]): Promise<void> {
    const all = Array.isArray(rows) ? rows : [rows];
    if (all.some((row) => row.tenantId !== this.tenantId)) throw new Error(`A row of another tenant cannot be inserted as tenant ${this.tenantId}'s`);
    await this.repository.insert(all as QueryDeepPartialEntity<T>[]);
  }

  /** Applies `changes` to this tenant's rows that match `where`; how many rows changed. */
  async update(where: TenantFilter<T>, changes: TenantChanges<T>): Promise<number> {
    const result = await this.repository.update(this.scoped(where), changes as QueryDeepPartialEntity<T>);
    return result.affected ?? 0;
  }

  /** Deletes this tenant's rows that match `where`; how many went. */
  async delete(where: TenantFilter<T>): Promise<number> {
    const result = await this.repository.delete(this.scoped(where));
    return result.affected ?? 0;
  }

  /** The filter that lets every row of the tenant through. */
  private everyRow(): TenantFilter<T> {
    return {} as TenantFilter<T>;
  }

  private scoped(filter: TenantFilter<T>): FindOptionsWhere<T>;
  private scoped(filter: TenantFilter<T> | TenantFilter<T>[]): FindOptionsWhere<T> | FindOptionsWhere<T>[];
  private scoped(filter: TenantFilter<T> | TenantFilter<T>[]): FindOptionsWhere<T> | FindOptionsWhere<T>[] {
    // The tenant first, so the SQL reads `tenant_id = $1 AND ...` like the hand-written statements; a `tenantId`
    // smuggled into a filter past its type is dropped.
    const withTenant = (one: TenantFilter<T>) => {
      const { tenantId: _smuggled, ...filter } = one as TenantFilter<T> & { tenantId?: unknown };
      return { tenantId: this.tenantId, ...filter } as FindOptionsWhere<T>;
    };
    return Array.isArray(filter) ? filter.map(withTenant) : withTenant(filter);
  }
}
