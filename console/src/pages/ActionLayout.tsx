import { Loader, Stack, Text, Title } from '@mantine/core';
import { IconChartBar, IconFileDescription, IconHistory, IconPlayerPlay } from '@tabler/icons-react';
import { Outlet, useLocation, useParams } from 'react-router';
import { seg } from '../api/client';
import type { Action } from '../api/types';
import { useApi } from '../api/use-api';
import { ErrorAlert } from '../components/ErrorAlert';
import { SectionNav } from '../components/SectionNav';
import { Untrusted } from '../components/Untrusted';
import { ActionContext, useTenant } from './tenant-context';

/** One action: its name and description, and its sections (definition, try it, execution log, statistics). The tenant's breadcrumb trail ends at it. */
export function ActionLayout() {
  const tenantContext = useTenant();
  const { actionName = '' } = useParams();
  const location = useLocation();
  const actionBase = `${tenantContext.base}/actions/${seg(actionName)}`;
  const action = useApi<{ action: Action }>(actionBase);

  if (action.error && !action.data) return <ErrorAlert error={action.error} />;
  if (!action.data) return <Loader aria-label="Loading the action" />;

  const context: ActionContext = { ...tenantContext, action: action.data.action, actionBase, reloadAction: action.reload };
  const here = location.pathname.slice(location.pathname.indexOf(actionBase) + actionBase.length);
  return (
    <Stack gap="md">
      <ErrorAlert error={action.error} />
      <Stack gap={4}>
        <Title order={2} ff="monospace">
          <Untrusted>{action.data.action.name}</Untrusted>
        </Title>
        <Text>
          <Untrusted>{action.data.action.description}</Untrusted>
        </Text>
      </Stack>
      <SectionNav
        label="Action sections"
        sections={[
          { to: actionBase, label: 'Definition', icon: <IconFileDescription size={16} aria-hidden />, active: here === '' || here === '/edit' },
          { to: `${actionBase}/try`, label: 'Try it', icon: <IconPlayerPlay size={16} aria-hidden />, active: here === '/try' },
          { to: `${actionBase}/executions`, label: 'Execution log', icon: <IconHistory size={16} aria-hidden />, active: here.startsWith('/executions') },
          { to: `${actionBase}/stats`, label: 'Statistics', icon: <IconChartBar size={16} aria-hidden />, active: here === '/stats' },
        ]}
      />
      <Outlet context={context} />
    </Stack>
  );
}
