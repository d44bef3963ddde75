import { Anchor, Breadcrumbs, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconBolt, IconChartBar, IconHistory, IconKey, IconSettings, IconSignature } from '@tabler/icons-react';
import { Link, Outlet, useLocation, useParams } from 'react-router';
import { seg } from '../api/client';
import type { Tenant } from '../api/types';
import { useApi } from '../api/use-api';
import { ErrorAlert } from '../components/ErrorAlert';
import { SectionNav } from '../components/SectionNav';
import { StatusBadge } from '../components/StatusBadge';
import { Untrusted } from '../components/Untrusted';
import { useSignedIn } from '../session';
import { TenantContext } from './tenant-context';

const SECTIONS = ['actions', 'executions', 'stats', 'api-tokens', 'hmac-keys', 'settings'] as const;

/**
 * One tenant: where it sits (the page's one breadcrumb trail, down to the action when one is open), its name and
 * status, and its sections as tabs (Settings for operators only).
 */
export function TenantLayout() {
  const session = useSignedIn();
  const { tenantId = '', actionName } = useParams();
  const location = useLocation();
  const base = `/tenants/${seg(tenantId)}`;
  const tenant = useApi<{ tenant: Tenant }>(base);

  // A failed reload (after a rename, say) keeps the page it had, with the error above it.
  if (tenant.error && !tenant.data) return <ErrorAlert error={tenant.error} />;
  if (!tenant.data) return <Loader aria-label="Loading the tenant" />;

  const section = SECTIONS.find((name) => location.pathname.includes(`${base}/${name}`)) ?? 'actions';
  const context: TenantContext = { tenant: tenant.data.tenant, base, reloadTenant: tenant.reload };
  const operator = session.kind === 'operator';
  const name = <Untrusted>{tenant.data.tenant.name}</Untrusted>;
  // Each step but the last is a link; a tenant's developers see their tenant alone, so their trail starts below it.
  const trail = [
    ...(operator ? [{ to: '/tenants', label: 'Tenants' }, { to: base, label: name }] : []),
    ...(actionName === undefined ? [] : [{ to: `${base}/actions`, label: 'Actions' }, { to: '', label: <Text span ff="monospace"><Untrusted>{actionName}</Untrusted></Text> }]),
  ];

  return (
    <Stack gap="md">
      <ErrorAlert error={tenant.error} />
      {trail.length > 1 && (
        <nav aria-label="Breadcrumb">
          <Breadcrumbs styles={{ breadcrumb: { whiteSpace: 'normal' } }}>
            {trail.map((step, index) =>
              index < trail.length - 1 ? (
                <Anchor key={step.to} component={Link} to={step.to}>
                  {step.label}
                </Anchor>
              ) : (
                <Text key="here" aria-current="page">
                  {step.label}
                </Text>
              ),
            )}
          </Breadcrumbs>
        </nav>
      )}
      <Group gap="sm">
        <Title order={1}>{name}</Title>
        <StatusBadge status={tenant.data.tenant.status} />
      </Group>
      <SectionNav
        label="Tenant sections"
        sections={[
          { to: `${base}/actions`, label: 'Actions', icon: <IconBolt size={16} aria-hidden />, active: section === 'actions' },
          { to: `${base}/executions`, label: 'Executions', icon: <IconHistory size={16} aria-hidden />, active: section === 'executions' },
          { to: `${base}/stats`, label: 'Statistics', icon: <IconChartBar size={16} aria-hidden />, active: section === 'stats' },
          { to: `${base}/api-tokens`, label: 'API tokens', icon: <IconKey size={16} aria-hidden />, active: section === 'api-tokens' },
          { to: `${base}/hmac-keys`, label: 'HMAC keys', icon: <IconSignature size={16} aria-hidden />, active: section === 'hmac-keys' },
          ...(operator ? [{ to: `${base}/settings`, label: 'Settings', icon: <IconSettings size={16} aria-hidden />, active: section === 'settings' }] : []),
        ]}
      />
      <Outlet context={context} />
    </Stack>
  );
}
