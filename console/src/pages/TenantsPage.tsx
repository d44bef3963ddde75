import { Anchor, Button, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBuilding, IconPlus } from '@tabler/icons-react';
import { FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { post } from '../api/client';
import type { Tenant } from '../api/types';
import { usePagedList } from '../api/use-paged-list';
import { useFieldErrors } from '../api/field-errors';
import { useSend } from '../api/use-send';
import { EmptyState } from '../components/EmptyState';
import { LoadMore } from '../components/LoadMore';
import { ErrorAlert } from '../components/ErrorAlert';
import { besideInput } from '../components/BesideInput';
import { FormError } from '../components/FormError';
import { PageTitle } from '../components/PageTitle';
import { StatusBadge } from '../components/StatusBadge';
import { TableScroll } from '../components/TableScroll';
import { Time } from '../components/Time';
import { Untrusted } from '../components/Untrusted';
import { useSignedIn } from '../session';

/** Operators: every tenant (a page at a time), and a new one. */
export function TenantsPage() {
  const session = useSignedIn();
  const tenants = usePagedList<Tenant>(session.kind === 'operator' ? '/tenants' : undefined, 'tenants');
  if (session.kind !== 'operator') return <Navigate to={`/tenants/${session.tenant_id}`} replace />;

  return (
    <Stack>
      <PageTitle order={1} title="Tenants" description="Each tenant has its own actions, API tokens and HMAC keys." />
      <CreateTenantForm onCreated={() => void tenants.reload()} />
      <ErrorAlert error={tenants.error} />
      {tenants.items && tenants.items.length === 0 && (
        <EmptyState icon={<IconBuilding />} title="No tenants yet">
          <Text ta="center">Create the first one above, or from the command line: <code>npm run gateway -- bootstrap --tenant acme</code></Text>
        </EmptyState>
      )}
      {tenants.items && tenants.items.length > 0 && (
        <Paper withBorder radius="md">
          <TableScroll minWidth={640}>
            <Table striped highlightOnHover verticalSpacing="sm" aria-label="Tenants">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Id</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tenants.items.map((tenant) => (
                  <Table.Tr key={tenant.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/tenants/${tenant.id}`} fw={600}>
                        <Untrusted>{tenant.name}</Untrusted>
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge status={tenant.status} />
                    </Table.Td>
                    <Table.Td>
                      <Time value={tenant.created_at} />
                    </Table.Td>
                    <Table.Td>
                      <Text ff="monospace" size="sm" style={{ whiteSpace: 'nowrap' }}>
                        {tenant.id}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        </Paper>
      )}
      <LoadMore list={tenants} what="tenants" />
    </Stack>
  );
}

function CreateTenantForm({ onCreated }: { onCreated: () => void }) {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const { send, busy, error } = useSend(async () => {
    const { tenant } = await post<{ tenant: Tenant }>('/tenants', { name });
    notifications.show({ color: 'teal', title: 'Tenant created', message: <Untrusted>{tenant.name}</Untrusted> });
    setName('');
    onCreated();
    navigate(`/tenants/${tenant.id}`);
  });
  const refused = useFieldErrors(error, ['name']);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };

  return (
    <Paper withBorder p="md" radius="md">
      <form onSubmit={submit}>
        <Stack gap="xs">
          <TextInput
            label="New tenant's name"
            {...refused.input('name', name, setName)}
            required
            maxLength={200}
            inputContainer={besideInput(
              <Button type="submit" loading={busy} leftSection={<IconPlus size={16} aria-hidden />}>
                Create tenant
              </Button>,
              360,
            )}
          />
          <FormError error={error} title="The tenant was not created" named={refused.named.map(() => "New tenant's name")} rest={refused.rest} />
        </Stack>
      </form>
    </Paper>
  );
}
