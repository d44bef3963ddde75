import { Alert, Badge, Button, Code, Group, Modal, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconInfoCircle, IconPlus, IconRotateClockwise, IconSignature } from '@tabler/icons-react';
import { useState } from 'react';
import { del, post } from '../api/client';
import type { HmacKey } from '../api/types';
import { useApi } from '../api/use-api';
import { useSend } from '../api/use-send';
import { ConfirmButton } from '../components/ConfirmButton';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { shortId } from '../components/format';
import { PageTitle } from '../components/PageTitle';
import { SecretOnce } from '../components/SecretOnce';
import { StatusBadge } from '../components/StatusBadge';
import { TableScroll } from '../components/TableScroll';
import { Time } from '../components/Time';
import { useTenant } from './tenant-context';

/**
 * HMAC keys (spec 5.3: "Gateway Management, HMAC Keys"). The newest active key is primary: it makes the body's
 * `signature`; every active key signs the `webhook-signature` header. Rotating = a new key (primary at once)
 * while the old one keeps signing the header until it is revoked.
 */
export function HmacKeysPage() {
  const { base } = useTenant();
  const keys = useApi<{ hmac_keys: HmacKey[] }>(`${base}/hmac-keys`);
  const [created, setCreated] = useState<HmacKey>();
  const [rotateOpened, rotate] = useDisclosure(false);
  const active = keys.data?.hmac_keys.filter((key) => !key.revoked_at) ?? [];

  const { send: createKey, busy, error } = useSend(async () => {
    setCreated((await post<{ hmac_key: HmacKey }>(`${base}/hmac-keys`)).hmac_key);
    rotate.close();
    await keys.reload();
  });

  return (
    <Stack>
      <PageTitle title="HMAC keys" description="Webhook receivers verify every call with the tenant's key (body signature and Standard Webhooks headers).">
        {/* Until the keys are read, whether this would create the first key or rotate (with its warning) is unknown. */}
        {keys.data &&
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
      {created?.key && (
        <SecretOnce label="HMAC key" value={created.key} onDone={() => setCreated(undefined)}>
          <Text size="sm">Receivers check signatures with it: see docs/receivers.md for Python and Node examples.</Text>
        </SecretOnce>
      )}
      <ErrorAlert error={keys.error} />
      {keys.data && keys.data.hmac_keys.length === 0 && (
        <EmptyState icon={<IconSignature />} title="No HMAC keys yet">
          <Text ta="center">Actions cannot run without one: executions answer 409 until the tenant has an active key. Create it above.</Text>
        </EmptyState>
      )}
      {active.length > 1 && (
        <Alert color="blue" variant="outline" icon={<IconInfoCircle aria-hidden />}>
          {active.length} keys are active: the primary one signs the body, all of them sign the header. Revoke the old one once your receivers use the new one.
        </Alert>
      )}
      {keys.data && keys.data.hmac_keys.length > 0 && (
        <Paper withBorder radius="md">
          <TableScroll minWidth={560}>
            <Table striped verticalSpacing="sm" aria-label="HMAC keys" data-testid="hmac-keys">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Key</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Revoke</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {keys.data.hmac_keys.map((key) => (
                  <Table.Tr key={key.id} data-testid="hmac-key-row" data-primary={key.primary}>
                    <Table.Td>
                      <Code title={key.id}>{shortId(key.id)}</Code>
                    </Table.Td>
                    <Table.Td>
                      {key.primary ? (
                        <Badge color="blue" radius="sm">
                          primary
                        </Badge>
                      ) : key.revoked_at ? (
                        '—'
                      ) : (
                        'header only'
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Time value={key.created_at} />
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge status={key.revoked_at ? 'revoked' : 'active'} />
                    </Table.Td>
                    <Table.Td ta="right">
                      {!key.revoked_at && (
                        <ConfirmButton
                          aria-label={`Revoke key ${shortId(key.id)}`}
                          title={`Revoke key ${shortId(key.id)}?`}
                          message={
                            key.primary && active.length === 1
                              ? 'It is the only active key: executions will fail with 409 until a new key is created.'
                              : 'It signs nothing from now on. Receivers that still expect it will refuse calls.'
                          }
                          confirmLabel="Revoke key"
                          onConfirm={async () => {
                            await del(`${base}/hmac-keys/${key.id}`);
                            // A revoked key is no longer worth copying: its "copy it now" panel goes too.
                            setCreated((shown) => (shown?.id === key.id ? undefined : shown));
                            await keys.reload();
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
