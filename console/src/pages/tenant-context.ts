import { useOutletContext } from 'react-router';
import type { Action, Tenant } from '../api/types';

export interface TenantContext {
  tenant: Tenant;
  /** The management API path of this tenant: `/tenants/{id}`. */
  base: string;
  reloadTenant: () => Promise<void>;
}

export interface ActionContext extends TenantContext {
  action: Action;
  /** `/tenants/{id}/actions/{name}` */
  actionBase: string;
  reloadAction: () => Promise<void>;
}

export const useTenant = () => useOutletContext<TenantContext>();
export const useAction = () => useOutletContext<ActionContext>();
