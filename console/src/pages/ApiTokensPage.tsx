import { Button, Code, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { FormEvent, useState } from 'react';
import { post } from '../api/client';
import type { ApiToken } from '../api/types';
import { usePagedList } from '../api/use-paged-list';
import { useFieldErrors } from '../api/field-errors';
import { useSend } from '../api/use-send';
import { CredentialList, useSecretPanel } from '../components/CredentialList';
import { EmptyState } from '../components/EmptyState';
import { besideInput } from '../components/BesideInput';
import { FormError } from '../components/FormError';
import { PageTitle } from '../components/PageTitle';
import { StatusBadge } from '../components/StatusBadge';
import { Time } from '../components/Time';
import { Untrusted } from '../components/Untrusted';
import { useTenant } from './tenant-context';

function standing(token: ApiToken): 'active' | 'revoked' | 'expired' {
  if (token.revoked_at) return 'revoked';
  if (token.expires_at && Date.parse(token.expires_at) <= Date.now()) return 'expired';
  return 'active';
}

/** API tokens (spec 5.1: "Gateway Management, API Tokens"): list (a page at a time), create (shown once), revoke. */
export function ApiTokensPage() {
  const { base } = useTenant();
  const path = `${base}/api-tokens`;
  const tokens = usePagedList<ApiToken>(path, 'api_tokens');
  const secret = useSecretPanel();
  const [prefix, setPrefix] = useState('');

  return (
    <Stack>
      <PageTitle title="API tokens" description="Long-lived credentials a tenant exchanges for 24-hour bearer tokens (POST /api/v1/gateway/token/exchange)." />
      {!secret.created && (
        <CreateTokenForm
          path={path}
          onCreated={(token) => {
            setPrefix(token.prefix);
            secret.show({ id: token.id, value: token.token as string });
            void tokens.reload();
          }}
        />
      )}
      <CredentialList
        path={path}
        list={tokens}
        label="API token"
        secret={secret}
        secretHint={
          <Text size="sm">
            Exchange it for a bearer token: <Code>{`POST /api/v1/gateway/token/exchange {"api_token": "${prefix}…"}`}</Code>
          </Text>
        }
        empty={
          <EmptyState icon={<IconKey />} title="No API tokens yet">
            <Text ta="center">Create one above: the tenant&apos;s developers exchange it for the bearer token every gateway call needs.</Text>
          </EmptyState>
        }
        columns={[
          { header: 'Name', cell: (token) => <Text fw={600} size="sm"><Untrusted>{token.name}</Untrusted></Text> },
          { header: 'Prefix', cell: (token) => <Code>{token.prefix}…</Code> },
          { header: 'Created', cell: (token) => <Time value={token.created_at} /> },
          { header: 'Last used', cell: (token) => (token.last_used_at ? <Time value={token.last_used_at} /> : 'never') },
          { header: 'Expires', cell: (token) => (token.expires_at ? <Time value={token.expires_at} /> : 'never') },
          { header: 'Status', cell: (token) => <StatusBadge status={standing(token)} /> },
        ]}
        revoke={(token) => ({
          label: `Revoke ${token.name}`,
          title: (
            <>
              Revoke “<Untrusted>{token.name}</Untrusted>”?
            </>
          ),
          message: 'It can no longer be exchanged, and bearer tokens made from it stop working at their next request, on every replica. This cannot be undone.',
          confirmLabel: 'Revoke token',
        })}
        tableLabel="API tokens"
        tableTestId="api-tokens"
        rowTestId="api-token-row"
        minWidth={900}
      />
    </Stack>
  );
}

const FIELDS = ['name', 'expires_at'] as const;
const LABELS = { name: 'Token name', expires_at: 'Expires' };

function CreateTokenForm({ path, onCreated }: { path: string; onCreated: (token: ApiToken) => void }) {
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const { send, busy, error } = useSend(async () => {
    const body = { name, ...(expires ? { expires_at: new Date(expires).toISOString() } : {}) };
    onCreated((await post<{ api_token: ApiToken }>(path, body)).api_token);
    setName('');
    setExpires('');
  });
  const refused = useFieldErrors(error, FIELDS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };

  return (
    <Paper withBorder p="md" radius="md">
      <form onSubmit={submit}>
        <Stack gap="xs">
          {/* Aligned at the top: an error under one field must not move the others (the button sits beside its input). */}
          <Group align="flex-start">
            <TextInput
              label="Token name"
              description="Who or what uses it"
              {...refused.input('name', name, setName)}
              required
              maxLength={200}
              w={280}
              maw="100%"
            />
            <TextInput
              label="Expires (optional)"
              description="Your local time; empty: never"
              type="datetime-local"
              {...refused.input('expires_at', expires, setExpires)}
              inputContainer={besideInput(
                <Button type="submit" loading={busy} leftSection={<IconPlus size={16} aria-hidden />}>
                  Create token
                </Button>,
                240,
                true,
              )}
            />
          </Group>
          <FormError error={error} title="The token was not created" named={refused.named.map((field) => LABELS[field])} rest={refused.rest} />
        </Stack>
      </form>
    </Paper>
  );
}
