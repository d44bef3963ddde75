import { Button, Code, Group, Paper, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { FormEvent, useState } from 'react';
import { del, post } from '../api/client';
import type { ApiToken } from '../api/types';
import { useApi } from '../api/use-api';
import { useSend } from '../api/use-send';
import { ConfirmButton } from '../components/ConfirmButton';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageTitle } from '../components/PageTitle';
import { SecretOnce } from '../components/SecretOnce';
import { StatusBadge } from '../components/StatusBadge';
import { TableScroll } from '../components/TableScroll';
import { Time } from '../components/Time';
import { Untrusted } from '../components/Untrusted';
import { useTenant } from './tenant-context';

function standing(token: ApiToken): 'active' | 'revoked' | 'expired' {
  if (token.revoked_at) return 'revoked';
  if (token.expires_at && Date.parse(token.expires_at) <= Date.now()) return 'expired';
  return 'active';
}

/** API tokens (spec 5.1: "Gateway Management, API Tokens"): list, create (shown once), revoke. */
export function ApiTokensPage() {
  const { base } = useTenant();
  const tokens = useApi<{ api_tokens: ApiToken[] }>(`${base}/api-tokens`);
  const [created, setCreated] = useState<ApiToken>();

  return (
    <Stack>
      <PageTitle title="API tokens" description="Long-lived credentials a tenant exchanges for 24-hour bearer tokens (POST /api/v1/gateway/token/exchange)." />
      {created?.token ? (
        <SecretOnce label="API token" value={created.token} onDone={() => setCreated(undefined)}>
          <Text size="sm">
            Exchange it for a bearer token: <Code>{`POST /api/v1/gateway/token/exchange {"api_token": "${created.prefix}…"}`}</Code>
          </Text>
        </SecretOnce>
      ) : (
        <CreateTokenForm
          path={`${base}/api-tokens`}
          onCreated={(token) => {
            setCreated(token);
            void tokens.reload();
          }}
        />
      )}
      <ErrorAlert error={tokens.error} />
      {tokens.data && tokens.data.api_tokens.length === 0 && (
        <EmptyState icon={<IconKey />} title="No API tokens yet">
          <Text ta="center">Create one above: the tenant&apos;s developers exchange it for the bearer token every gateway call needs.</Text>
        </EmptyState>
      )}
      {tokens.data && tokens.data.api_tokens.length > 0 && (
        <Paper withBorder radius="md">
          <TableScroll minWidth={900}>
            <Table striped verticalSpacing="sm" aria-label="API tokens" data-testid="api-tokens">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Prefix</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Last used</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Revoke</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tokens.data.api_tokens.map((token) => (
                  <Table.Tr key={token.id} data-testid="api-token-row">
                    <Table.Td fw={600}>
                      <Untrusted>{token.name}</Untrusted>
                    </Table.Td>
                    <Table.Td>
                      <Code>{token.prefix}…</Code>
                    </Table.Td>
                    <Table.Td>
                      <Time value={token.created_at} />
                    </Table.Td>
                    <Table.Td>{token.last_used_at ? <Time value={token.last_used_at} /> : 'never'}</Table.Td>
                    <Table.Td>{token.expires_at ? <Time value={token.expires_at} /> : 'never'}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={standing(token)} />
                    </Table.Td>
                    <Table.Td ta="right">
                      {!token.revoked_at && (
                        <ConfirmButton
                          aria-label={`Revoke ${token.name}`}
                          title={
                            <>
                              Revoke “<Untrusted>{token.name}</Untrusted>”?
                            </>
                          }
                          message="It can no longer be exchanged, and bearer tokens made from it stop working at their next request, on every replica. This cannot be undone."
                          confirmLabel="Revoke token"
                          onConfirm={async () => {
                            await del(`${base}/api-tokens/${token.id}`);
                            // A revoked token is no longer worth copying: its "copy it now" panel goes too.
                            setCreated((shown) => (shown?.id === token.id ? undefined : shown));
                            await tokens.reload();
                          }}
                        >
                          Revoke
                        </ConfirmButton>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        </Paper>
      )}
    </Stack>
  );
}

function CreateTokenForm({ path, onCreated }: { path: string; onCreated: (token: ApiToken) => void }) {
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const { send, busy, error } = useSend(async () => {
    const body = { name, ...(expires ? { expires_at: new Date(expires).toISOString() } : {}) };
    onCreated((await post<{ api_token: ApiToken }>(path, body)).api_token);
    setName('');
    setExpires('');
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };

  return (
    <Paper withBorder p="md" radius="md">
      <form onSubmit={submit}>
        <Stack gap="xs">
          <Group align="flex-end">
            <TextInput label="Token name" description="Who or what uses it" value={name} onChange={(event) => setName(event.currentTarget.value)} required maxLength={200} w={280} maw="100%" />
            <TextInput
              label="Expires (optional)"
              description="Your local time; empty: never"
              type="datetime-local"
              value={expires}
              onChange={(event) => setExpires(event.currentTarget.value)}
              w={240}
              maw="100%"
            />
            <Button type="submit" loading={busy} leftSection={<IconPlus size={16} aria-hidden />}>
              Create token
            </Button>
          </Group>
          <ErrorAlert error={error} />
        </Stack>
      </form>
    </Paper>
  );
}
