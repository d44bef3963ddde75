import { Anchor, Button, List, Paper, Stack, Table, Text } from '@mantine/core';
import { CodeBlock } from '../components/CodeBlock';
import { IconBolt, IconPlus } from '@tabler/icons-react';
import { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Action } from '../api/types';
import { usePagedList } from '../api/use-paged-list';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadMore } from '../components/LoadMore';
import { PageTitle } from '../components/PageTitle';
import { TableScroll } from '../components/TableScroll';
import { Time } from '../components/Time';
import { Untrusted } from '../components/Untrusted';
import { useTenant } from './tenant-context';

/** A tenant's actions, or what to do when there are none. */
export function ActionsPage() {
  const { base } = useTenant();
  const actions = usePagedList<Action>(`${base}/actions`, 'actions');
  const register = (
    <Button component={Link} to={`${base}/actions/new-action`} leftSection={<IconPlus size={16} aria-hidden />}>
      Register an action
    </Button>
  );

  return (
    <Stack>
      <PageTitle title="Actions" description="What the platform can run for this tenant: a JSON Schema of parameters and a webhook that does the work.">
        {actions.items && actions.items.length > 0 && register}
      </PageTitle>
      <ErrorAlert error={actions.error} />
      {actions.items && actions.items.length === 0 && <NoActionsYet register={register} />}
      {actions.items && actions.items.length > 0 && (
        <Paper withBorder radius="md">
          <TableScroll minWidth={640}>
            <Table striped highlightOnHover verticalSpacing="sm" aria-label="Actions">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Description</Table.Th>
                  <Table.Th>Webhook URL</Table.Th>
                  <Table.Th>Updated</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {actions.items.map((action) => (
                  <Table.Tr key={action.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`${base}/actions/${action.name}`} ff="monospace" fw={600}>
                        <Untrusted>{action.name}</Untrusted>
                      </Anchor>
                    </Table.Td>
                    {/* Three lines at most; the action's own page shows all of it. */}
                    <Table.Td>
                      <Text size="sm" lineClamp={3}>
                        <Untrusted>{action.description}</Untrusted>
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text ff="monospace" size="sm" lineClamp={3}>
                        <Untrusted>{action.webhook_url}</Untrusted>
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Time value={action.updated_at} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        </Paper>
      )}
      <LoadMore list={actions} what="actions" />
    </Stack>
  );
}

function NoActionsYet({ register }: { register: ReactNode }) {
  const origin = window.location.origin;
  const curl = [
    `JWT=$(curl -s -X POST ${origin}/api/v1/gateway/token/exchange \\`,
    `  -H 'content-type: application/json' -d '{"api_token":"agw_…"}' \\`,
    `  | node -p "JSON.parse(require('fs').readFileSync(0)).jwt_token")`,
    ``,
    `curl -X POST ${origin}/api/v1/gateway/actions \\`,
    `  -H "authorization: Bearer $JWT" -H 'content-type: application/json' \\`,
    `  -d '{"name":"get_weather","description":"Current weather for a city",`,
    `       "webhook_url":"https://hooks.example.com/weather",`,
    `       "json_schema":{"type":"object","required":["city"],`,
    `                      "properties":{"city":{"type":"string"}}}}'`,
  ].join('\n');
  return (
    <EmptyState icon={<IconBolt />} title="No actions yet">
      <Text ta="center">
        An action is a name, a description, a JSON Schema of its parameters and a webhook URL. Registering one sends a signed test POST
        to the webhook first: it must answer 2xx.
      </Text>
      {register}
      <Stack gap="xs" w="100%">
        <Text fw={600}>Or from your own code, with an API token of this tenant:</Text>
        <List type="ordered" size="sm" spacing={4}>
          <List.Item>Create an API token (API tokens tab) and exchange it for a bearer token.</List.Item>
          <List.Item>POST the action to the gateway, as below.</List.Item>
        </List>
        <CodeBlock aria-label="Registering an action with curl">
          {curl}
        </CodeBlock>
      </Stack>
    </EmptyState>
  );
}
