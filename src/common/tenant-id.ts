/**
 * A tenant id someone has checked: it came from an authenticated principal (the bearer strategy, the token
 * check) or from `TenancyService.requireId` (the admin path, after looking the tenant up). Tenant-scoped
 * repository methods take it first, so a query that forgets the tenant does not compile.
 *
 * The brand alone does not stop a cast, so lint does (eslint.config.mjs): `asTenantId` may be imported only by
 * `jwt.strategy.ts`, `api-tokens.service.ts`, `tenancy.service.ts` and test helpers, and `as TenantId` is refused
 * everywhere else.
 */
export type TenantId = string & { readonly __brand: 'TenantId' };

/** For the checking places listed above only. */
export const asTenantId = (id: string): TenantId => id as TenantId;
