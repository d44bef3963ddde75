import { Button, Code, CopyButton, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconLink } from '@tabler/icons-react';
import { FormEvent, useState } from 'react';
import { Navigate } from 'react-router';
import { patch, post } from '../api/client';
import type { PortalLink, Tenant } from '../api/types';
import { useFieldErrors } from '../api/field-errors';
import { useSend } from '../api/use-send';
import { CodeBlock } from '../components/CodeBlock';
import { ConfirmButton } from '../components/ConfirmButton';
import { ErrorAlert } from '../components/ErrorAlert';
import { besideInput } from '../components/BesideInput';
import { FormError } from '../components/FormError';
import { PageTitle } from '../components/PageTitle';
import { Time } from '../components/Time';
import { useSignedIn } from '../session';
import { Untrusted } from '../components/Untrusted';
import { useTenant } from './tenant-context';

/** Operators: rename, disable or enable the tenant, and make a portal link for its developers. */
export function TenantSettingsPage() {
  const session = useSignedIn();
  const { tenant, base, reloadTenant } = useTenant();
  if (session.kind !== 'operator') return <Navigate to={`${base}/actions`} replace />;

  return (
    <Stack>
      <PageTitle title="Settings" description="The tenant's name, its developers' access to this console, and whether it can be used at all." />
      <RenameForm tenant={tenant} base={base} onSaved={reloadTenant} />
      <PortalLinkCard base={base} disabled={tenant.status === 'disabled'} />
      <Paper withBorder p="lg" radius="md">
        <Stack gap="xs">
          <Title order={3}>{tenant.status === 'active' ? 'Disable the tenant' : 'Enable the tenant'}</Title>
          <Text size="sm">
            {tenant.status === 'active'
              ? 'Its API tokens and bearer tokens stop working at their next request, on every replica, and its portal sessions end at once.'
              : 'Its API tokens work again. Portal sessions that were ended stay ended: make a new portal link.'}
          </Text>
          <Group>
            {tenant.status === 'active' ? (
              <ConfirmButton
                size="sm"
                title={
                  <>
                    Disable <Untrusted>{tenant.name}</Untrusted>?
                  </>
                }
                message="Nothing of the tenant can be used until it is enabled again."
                confirmLabel="Disable tenant"
                onConfirm={async () => {
                  await patch(base, { status: 'disabled' });
                  await reloadTenant();
                }}
              >
                Disable tenant
              </ConfirmButton>
            ) : (
              <EnableButton base={base} onEnabled={reloadTenant} />
            )}
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}

function RenameForm({ tenant, base, onSaved }: { tenant: Tenant; base: string; onSaved: () => Promise<void> }) {
  const [name, setName] = useState(tenant.name);
  const { send, busy, error } = useSend(async () => {
    await patch(base, { name });
    await onSaved();
    notifications.show({ color: 'teal', title: 'Tenant renamed', message: <Untrusted>{name}</Untrusted> });
  });
  const refused = useFieldErrors(error, ['name']);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };

  return (
    <Paper withBorder p="lg" radius="md">
      <form onSubmit={submit}>
        <Stack gap="xs">
          <Title order={3}>Name</Title>
          <TextInput
            label="Tenant name"
            {...refused.input('name', name, setName)}
            required
            maxLength={200}
            inputContainer={besideInput(
              <Button type="submit" loading={busy} disabled={name === tenant.name}>
                Rename
              </Button>,
              360,
            )}
          />
          <FormError error={error} title="The tenant was not renamed" named={refused.named.map(() => 'Tenant name')} rest={refused.rest} />
          <Text size="sm" c="dimmed">
            Tenant id <Code>{tenant.id}</Code>
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}

function PortalLinkCard({ base, disabled }: { base: string; disabled: boolean }) {
  const [link, setLink] = useState<PortalLink>();
  const create = useSend(async () => setLink((await post<{ portal_link: PortalLink }>(`${base}/portal-links`)).portal_link));

  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="xs">
        <Title order={3}>Tenant portal</Title>
        <Text size="sm">
          A portal link opens this console for the tenant&apos;s own developers, scoped to this tenant alone. It works once, for a few minutes. Your
          platform&apos;s backend makes one with <Code>POST /api/v1/admin/tenants/{'{id}'}/portal-links</Code> whenever a developer opens the
          integration page.
        </Text>
        {link && (
          <Stack gap={4} data-testid="portal-link">
            <CodeBlock>{link.url}</CodeBlock>
            <Group>
              <CopyButton value={link.url}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="outline" onClick={copy} leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}>
                    {copied ? 'Copied' : 'Copy link'}
                  </Button>
                )}
              </CopyButton>
              <Text size="sm">
                Valid until <Time value={link.expires_at} />, once.
              </Text>
            </Group>
          </Stack>
        )}
        <ErrorAlert error={create.error} />
        <Group>
          <Button size="sm" variant="default" leftSection={<IconLink size={16} aria-hidden />} onClick={() => void create.send()} loading={create.busy} disabled={disabled}>
            Create portal link
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Enabling asks nothing first (it takes nothing away), but says so when the service refuses. */
function EnableButton({ base, onEnabled }: { base: string; onEnabled: () => Promise<void> }) {
  const enable = useSend(async () => {
    await patch(base, { status: 'active' });
    await onEnabled();
  });

  return (
    <Stack gap="xs">
      <ErrorAlert error={enable.error} />
      <div>
        <Button size="sm" onClick={() => void enable.send()} loading={enable.busy}>
          Enable tenant
        </Button>
      </div>
    </Stack>
  );
}
