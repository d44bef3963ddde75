import { TenantStatus } from './tenant.entity';

/** A tenant as the management API shows it. */
export interface TenantDto {
  id: string;
  name: string;
  status: TenantStatus;
  created_at: string;
  updated_at: string;
}
