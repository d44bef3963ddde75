import { ActionIcon, Group, Paper, Stack, Table, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { ReactNode, useCallback, useId, useMemo, useState } from 'react';
import { del } from '../api/client';
import type { PagedItems } from '../api/use-paged-list';
import { ConfirmButton } from './ConfirmButton';
import { ErrorAlert } from './ErrorAlert';
import { LoadMore } from './LoadMore';
import { SecretOnce } from './SecretOnce';
import { TableScroll } from './TableScroll';

/** What API tokens and HMAC keys share: an id, and when (if ever) they were revoked. */
export interface Credential {
  id: string;
  revoked_at: string | null;
}

/** A credential just created, with its secret (shown once). */
export interface CreatedSecret {
  id: string;
  value: string;
}

/** The "copy it now" panel's state: the credential just created, until it is stored or revoked. */
export interface SecretPanel {
  created: CreatedSecret | undefined;
  show: (created: CreatedSecret) => void;
  /** "I have stored it". */
  done: () => void;
  /** A revoked credential's panel goes; another's stays. */
  revoked: (id: string) => void;
}

export function useSecretPanel(): SecretPanel {
  const [created, setCreated] = useState<CreatedSecret>();
  const done = useCallback(() => setCreated(undefined), []);
  const revoked = useCallback((id: string) => setCreated((shown) => (shown?.id === id ? undefined : shown)), []);
  return useMemo(() => ({ created, show: setCreated, done, revoked }), [created, done, revoked]);
}

export interface CredentialColumn<T> {
  header: string;
  /** What the column means, behind an info button beside its header (hover, focus or tap). */
  help?: string;
  cell: (item: T) => ReactNode;
}

/** What the revoke dialog of one credential says. */
export interface RevokeText {
  /** The button's accessible name (`Revoke deploy bot`). */
  label: string;
  title: ReactNode;
  message: ReactNode;
  confirmLabel: string;
}

interface CredentialListProps<T extends Credential> {
  /** The collection's path (`/tenants/{id}/api-tokens`): DELETE `<path>/<id>` revokes. */
  path: string;
  list: PagedItems<T>;
  /** `API token` or `HMAC key`: the "copy it now" panel's words. */
  label: string;
  /** The credential just created, whose secret the panel shows until it is stored or the credential revoked. */
  secret: SecretPanel;
  /** Below the secret in the panel: how to use it. */
  secretHint: ReactNode;
  columns: CredentialColumn<T>[];
  revoke: (item: T) => RevokeText;
  /** Shown when the list is empty. */
  empty: ReactNode;
  /** Shown between the panel and the table (a note about the list). */
  notice?: ReactNode;
  tableLabel: string;
  tableTestId: string;
  rowTestId: string;
  rowProps?: (item: T) => Record<string, unknown>;
  minWidth: number;
}

/**
 * A tenant's API tokens or HMAC keys (spec 5.1, 5.3): the "copy it now" panel of the one just created, the list a
 * page at a time, and each live one's revoke button, which asks first and, once revoked, takes that credential's
 * panel away (a revoked secret is not worth copying). One component for both pages, so the flow is the same.
 */
export function CredentialList<T extends Credential>(props: CredentialListProps<T>) {
  const { path, list, label, secret, secretHint, columns, revoke, empty, notice } = props;
  return (
    <Stack>
      {secret.created && (
        <SecretOnce label={label} value={secret.created.value} onDone={secret.done}>
          {secretHint}
        </SecretOnce>
      )}
      <ErrorAlert error={list.error} />
      {list.items && list.items.length === 0 && empty}
      {notice}
      {list.items && list.items.length > 0 && (
        <Paper withBorder radius="md">
          <TableScroll minWidth={props.minWidth}>
            <Table striped verticalSpacing="sm" aria-label={props.tableLabel} data-testid={props.tableTestId}>
              <Table.Thead>
                <Table.Tr>
                  {columns.map((column) => (
                    <Table.Th key={column.header}>{column.help ? <HeaderWithHelp header={column.header} help={column.help} /> : column.header}</Table.Th>
                  ))}
                  <Table.Th>
                    <VisuallyHidden>Revoke</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.items.map((item) => (
                  <Table.Tr key={item.id} data-testid={props.rowTestId} {...props.rowProps?.(item)}>
                    {columns.map((column) => (
                      <Table.Td key={column.header}>{column.cell(item)}</Table.Td>
                    ))}
                    <Table.Td ta="right">{!item.revoked_at && <RevokeButton text={revoke(item)} onConfirm={() => revokeOne(item.id)} />}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        </Paper>
      )}
      <LoadMore list={list} what={`${label}s`} />
    </Stack>
  );

  async function revokeOne(id: string) {
    await del(`${path}/${id}`);
    secret.revoked(id);
    await list.reload();
  }
}

/** A header with its meaning in a tooltip, which screen readers get as the button's description. */
function HeaderWithHelp({ header, help }: { header: string; help: string }) {
  const id = useId();
  return (
    <Group gap={4} wrap="nowrap">
      {header}
      <Tooltip label={help} multiline w={340} withArrow events={{ hover: true, focus: true, touch: true }}>
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`What is the ${header.toLowerCase()}?`} aria-describedby={id}>
          <IconInfoCircle size={16} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <VisuallyHidden id={id}>{help}</VisuallyHidden>
    </Group>
  );
}

function RevokeButton({ text, onConfirm }: { text: RevokeText; onConfirm: () => Promise<void> }) {
  return (
    <ConfirmButton aria-label={text.label} title={text.title} message={text.message} confirmLabel={text.confirmLabel} onConfirm={onConfirm}>
      Revoke
    </ConfirmButton>
  );
}
