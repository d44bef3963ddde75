import { TenantId } from '../common/tenant-id';

/** Who calls the management API: an operator (the admin key or an operator session) or one tenant's session. */
export type ManagementPrincipal = { kind: 'operator' } | { kind: 'tenant'; tenantId: TenantId };
