import { Navigate } from 'react-router';
import { useSignedIn } from '../session';

/** Operators start at the tenant list, a tenant's developers at their tenant. */
export function HomeRedirect() {
  const session = useSignedIn();
  return <Navigate to={session.kind === 'operator' ? '/tenants' : `/tenants/${session.tenant_id}`} replace />;
}
