/**
 * A tenant id that came from an authenticated principal or a checked admin path. Tenant-scoped repository
 * methods take it first, so a query that forgets the tenant does not compile.
 */
export type TenantId = string & { readonly __brand: 'TenantId' };

export const asTenantId = (id: string): TenantId => id as TenantId;
