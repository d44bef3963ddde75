import { Alert, Anchor, Badge, Button, Code, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconInfoCircle, IconPlus, IconRotateClockwise, IconSignature } from '@tabler/icons-react';
import { post } from '../api/client';
import type { HmacKey } from '../api/types';
import { usePagedList } from '../api/use-paged-list';
import { useSend } from '../api/use-send';
import { CredentialList, useSecretPanel } from '../components/CredentialList';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { shortId } from '../components/format';
import { PageTitle } from '../components/PageTitle';
import { StatusBadge } from '../components/StatusBadge';
import { Time } from '../components/Time';
import { useTenant } from './tenant-context';

/** The "Key id" column's help: the id is this list's name for a key, which receivers never see. */
export const KEY_ID_HELP =
  'The last 8 characters of the key\'s id (hover one for all of it): how this page and the management API name a key, e.g. to revoke it. ' +
  'It is not the key and not secret. Receivers never see it: each call\'s webhook-signature header holds one "v1,…" signature per active key ' +
  'without naming the key, so a receiver tries every key it was given.';

/**
 * What to do with a key just created, said here: a tenant's developer has no copy of this project's docs. The
 * served API reference (Swagger UI, on this service) describes the calls and their headers.
 */
function SigningHelp() {
  return (
    <Stack gap={6}>
      <Text size="sm">Give it to the receivers of this tenant&apos;s actions. Every call they get is signed with it twice:</Text>
      <List size="sm" spacing={4}>
        <List.Item>
          the <Code>webhook-signature</Code> header (Standard Webhooks): check it with any{' '}
          <Anchor href="https://www.standardwebhooks.com/" target="_blank" rel="noreferrer" inherit>
            Standard Webhooks library
          </Anchor>
          , given this whole key;
        </List.Item>
        <List.Item>
          the body&apos;s <Code>signature</Code>: the hex HMAC-SHA256, keyed with this whole key, of the raw body without its{' '}
          <Code>,&quot;signature&quot;:&quot;…&quot;</Code>.
        </List.Item>
      </List>
      <Text size="sm">
        A call whose signatures do not verify is not from this gateway: answer it 401. Each call and its headers are described in the{' '}
        <Anchor href={API_REFERENCE} target="_blank" data-testid="api-reference-link" inherit>
          API reference
        </Anchor>{' '}
        (its Webhooks section).
      </Text>
    </Stack>
  );
}

/** The API reference this service serves (Swagger UI over its openapi.json), outside the console. */
const API_REFERENCE = '/api/v1/gateway/docs';

/**
 * HMAC keys (spec 5.3: "Gateway Management, HMAC Keys"). The newest active key is primary: it makes the body's
 * `signature`; every active key signs the `webhook-signature` header. Rotating = a new key (primary at once)
 * while the old one keeps signing the header until it is revoked.
 */
export function HmacKeysPage() {
  const { base } = useTenant();
  const path = `${base}/hmac-keys`;
  // Every page at once: at most 10 active keys and the 100 newest revoked ones, and which is active decides the
  // buttons above the list.
  const keys = usePagedList<HmacKey>(path, 'hmac_keys', { all: true });
  const secret = useSecretPanel();
  const [rotateOpened, rotate] = useDisclosure(false);
  const active = keys.items?.filter((key) => !key.revoked_at) ?? [];

  const { send: createKey, busy, error } = useSend(async () => {
    const { hmac_key } = await post<{ hmac_key: HmacKey }>(path);
    secret.show({ id: hmac_key.id, value: hmac_key.key as string });
    rotate.close();
    await keys.reload();
  });

  return (
    <Stack>
      <PageTitle title="HMAC keys" description="Webhook receivers verify every call with the tenant's key (body signature and Standard Webhooks headers).">
        {/* Until the keys are read, whether this would create the first key or rotate (with its warning) is unknown. */}
        {keys.items &&
          (active.length === 0 ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => void createKey()} loading={busy}>
              Create key
            </Button>
          ) : (
            <Button leftSection={<IconRotateClockwise size={16} aria-hidden />} onClick={rotate.open}>
              Rotate key
            </Button>
          ))}
      </PageTitle>
      <Modal opened={rotateOpened} onClose={rotate.close} title="Rotate the HMAC key?" centered size="lg">
        <Stack>
          <Text size="sm">A new key is created and becomes primary at once: it makes the body&apos;s <Code>signature</Code> from the next call on.</Text>
          <Text size="sm">
            The current key keeps signing the <Code>webhook-signature</Code> header, so receivers that verify the header go on working. Give the new key
            to your receivers, then revoke the old one here.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={rotate.close}>
              Cancel
            </Button>
            <Button onClick={() => void createKey()} loading={busy}>
              Create the new key
            </Button>
          </Group>
        </Stack>
      </Modal>
      <ErrorAlert error={error} />
      <CredentialList
        path={path}
        list={keys}
        label="HMAC key"
        secret={secret}
        secretHint={<SigningHelp />}
        empty={
          <EmptyState icon={<IconSignature />} title="No HMAC keys yet">
            <Text ta="center">Actions cannot run without one: executions answer 409 until the tenant has an active key. Create it above.</Text>
          </EmptyState>
        }
        notice={
          active.length > 1 && (
            <Alert color="blue" variant="outline" icon={<IconInfoCircle aria-hidden />}>
              {active.length} keys are active: the primary one signs the body, all of them sign the header. Revoke the old one once your receivers use the new
              one.
            </Alert>
          )
        }
        columns={[
          { header: 'Key id', help: KEY_ID_HELP, cell: (key) => <Code title={key.id}>{shortId(key.id)}</Code> },
          {
            header: 'Role',
            cell: (key) =>
              key.primary ? (
                <Badge color="blue" radius="sm">
                  primary
                </Badge>
              ) : key.revoked_at ? (
                '—'
              ) : (
                'header only'
              ),
          },
          { header: 'Created', cell: (key) => <Time value={key.created_at} /> },
          { header: 'Status', cell: (key) => <StatusBadge status={key.revoked_at ? 'revoked' : 'active'} /> },
        ]}
        revoke={(key) => ({
          label: `Revoke key ${shortId(key.id)}`,
          title: `Revoke key ${shortId(key.id)}?`,
          message:
            key.primary && active.length === 1
              ? 'It is the only active key: executions will fail with 409 until a new key is created.'
              : 'It signs nothing from now on. Receivers that still expect it will refuse calls.',
          confirmLabel: 'Revoke key',
        })}
        tableLabel="HMAC keys"
        tableTestId="hmac-keys"
        rowTestId="hmac-key-row"
        rowProps={(key) => ({ 'data-primary': key.primary })}
        minWidth={560}
      />
    </Stack>
  );
}
