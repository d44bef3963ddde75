import { Anchor, Breadcrumbs, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconBolt, IconKey, IconSettings, IconSignature } from '@tabler/icons-react';
import { Link, Outlet, useLocation, useParams } from 'react-router';
import { seg } from '../api/client';
import type { Tenant } from '../api/types';
import { useApi } from '../api/use-api';
import { ErrorAlert } from '../components/ErrorAlert';
import { SectionNav } from '../components/SectionNav';
import { StatusBadge } from '../components/StatusBadge';
import { useSignedIn } from '../session';
import { TenantContext } from './tenant-context';

const SECTIONS = ['actions', 'api-tokens', 'hmac-keys', 'settings'] as const;

/** One tenant: its name and status, and its sections as tabs (Settings for operators only). */
export function TenantLayout() {
  const session = useSignedIn();
  const { tenantId = '' } = useParams();
  const location = useLocation();
  const base = `/tenants/${seg(tenantId)}`;
  const tenant = useApi<{ tenant: Tenant }>(base);

  // A failed reload (after a rename, say) keeps the page it had, with the error above it.
  if (tenant.error && !tenant.data) return <ErrorAlert error={tenant.error} />;
  if (!tenant.data) return <Loader aria-label="Loading the tenant" />;

  const section = SECTIONS.find((name) => location.pathname.includes(`${base}/${name}`)) ?? 'actions';
  const context: TenantContext = { tenant: tenant.data.tenant, base, reloadTenant: tenant.reload };
  const operator = session.kind === 'operator';

  return (
    <Stack gap="md">
      <ErrorAlert error={tenant.error} />
      {operator && (
        <nav aria-label="Breadcrumb">
          <Breadcrumbs>
            <Anchor component={Link} to="/tenants">
              Tenants
            </Anchor>
            <Text>{tenant.data.tenant.name}</Text>
          </Breadcrumbs>
        </nav>
      )}
      <Group gap="sm">
        <Title order={1}>{tenant.data.tenant.name}</Title>
        <StatusBadge status={tenant.data.tenant.status} />
      </Group>
      <SectionNav
        label="Tenant sections"
        sections={[
          { to: `${base}/actions`, label: 'Actions', icon: <IconBolt size={16} aria-hidden />, active: section === 'actions' },
          { to: `${base}/api-tokens`, label: 'API tokens', icon: <IconKey size={16} aria-hidden />, active: section === 'api-tokens' },
          { to: `${base}/hmac-keys`, label: 'HMAC keys', icon: <IconSignature size={16} aria-hidden />, active: section === 'hmac-keys' },
          ...(operator ? [{ to: `${base}/settings`, label: 'Settings', icon: <IconSettings size={16} aria-hidden />, active: section === 'settings' }] : []),
        ]}
      />
      <Outlet context={context} />
    </Stack>
  );
}
