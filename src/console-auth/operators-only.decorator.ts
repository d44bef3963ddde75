import { SetMetadata } from '@nestjs/common';

export const OPERATORS_ONLY = 'agw:operators-only';

/**
 * A management route under /tenants/{tenant_id} that a tenant's own session may not use (renaming or disabling
 * the tenant, minting portal links). Routes without `{tenant_id}` are for operators anyway.
 */
export const OperatorsOnly = () => SetMetadata(OPERATORS_ONLY, true);
