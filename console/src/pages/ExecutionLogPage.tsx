import { ActionIcon, Anchor, Badge, Button, Code, Group, Input, Loader, Paper, SegmentedControl, Select, Stack, Table, Text, TextInput, useMatches, VisuallyHidden } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { IconChevronDown, IconChevronRight, IconHistory, IconRefresh, IconSearch } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { FormEvent, Fragment, ReactNode, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { Action, Execution } from '../api/types';
import { useExecutionLog } from '../api/use-execution-log';
import { usePagedList } from '../api/use-paged-list';
import { BulkReplayButton, BulkReplayProgress } from '../components/BulkReplay';
import { CodeBlock } from '../components/CodeBlock';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { formatClock, formatDuration, formatTime } from '../components/format';
import { PageTitle } from '../components/PageTitle';
import { StatusBadge } from '../components/StatusBadge';
import { TableScroll } from '../components/TableScroll';
import { Time } from '../components/Time';
import { Untrusted } from '../components/Untrusted';
import { useAction, useTenant } from './tenant-context';

export const REFRESH_MS = 3_000;
/** Executions a page: the newest page is read again on every refresh, older pages once each. */
export const PAGE_SIZE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What the pickers read and write: a local date and time. */
const PICKER_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** The pickers' placeholder is a span, not an input's ::placeholder: as dark as dimmed text, for its contrast. */
const PICKER_STYLES = { placeholder: { color: 'var(--mantine-color-dimmed)' } };

type Status = 'all' | 'succeeded' | 'failed' | 'pending' | 'running';
const STATUSES: readonly string[] = ['succeeded', 'failed', 'pending', 'running'];

/** The filters of a log, kept in the address (shareable, and the Back button undoes one). */
interface Filters {
  status: Status;
  action?: string;
  since?: string;
  until?: string;
}

function useFilters(tenantWide: boolean): [Filters, (change: Partial<Filters>) => void] {
  const [params, setParams] = useSearchParams();
  const status = params.get('status');
  const filters: Filters = {
    status: status !== null && STATUSES.includes(status) ? (status as Status) : 'all',
    action: (tenantWide && params.get('action')) || undefined,
    since: params.get('since') || undefined,
    until: params.get('until') || undefined,
  };
  const change = (next: Partial<Filters>) =>
    setParams((current) => {
      const updated = new URLSearchParams(current);
      for (const [key, value] of Object.entries(next)) {
        if (value === undefined || value === 'all' || value === '') updated.delete(key);
        else updated.set(key, value);
      }
      return updated;
    });
  return [filters, change];
}

function listQuery(filters: Filters): string {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (filters.status !== 'all') query.set('status', filters.status);
  if (filters.action) query.set('action', filters.action);
  if (filters.since) query.set('since', filters.since);
  if (filters.until) query.set('until', filters.until);
  return query.toString();
}

/** The action's executions, newest first, filtered, paged down to the oldest kept; follows new ones by itself. */
export function ExecutionLogPage() {
  const { actionBase, action } = useAction();
  const [filters] = useFilters(false);
  return (
    <ExecutionLog
      title="Execution log"
      tenantWide={false}
      listPath={`${actionBase}/executions`}
      detailPath={(execution) => `${actionBase}/executions/${execution.id}`}
      tryPath={`${actionBase}/try`}
      actions={<BulkReplayButton actionBase={actionBase} actionName={action.name} suggestedSince={filters.since} />}
      banner={<BulkReplayProgress actionBase={actionBase} />}
    />
  );
}

/** Every execution of the tenant, whichever action ran, with the same filters and paging, and an action filter. */
export function TenantExecutionLogPage() {
  const { base } = useTenant();
  return (
    <ExecutionLog
      title="Executions"
      tenantWide
      listPath={`${base}/executions`}
      detailPath={(execution) => `${base}/executions/${execution.id}`}
      actionPath={(name) => `${base}/actions/${encodeURIComponent(name)}/executions`}
    />
  );
}

interface ExecutionLogProps {
  title: string;
  tenantWide: boolean;
  /** The management API path of the list, which is also the console's path of this page. */
  listPath: string;
  detailPath: (execution: Execution) => string;
  tryPath?: string;
  actionPath?: (name: string) => string;
  actions?: ReactNode;
  banner?: ReactNode;
}

function ExecutionLog({ title, tenantWide, listPath, detailPath, tryPath, actionPath, actions, banner }: ExecutionLogProps) {
  const [filters, setFilters] = useFilters(tenantWide);
  const [open, setOpen] = useState<Set<string>>(new Set());
  // A period that has ended gets no new executions: nothing to follow.
  const log = useExecutionLog(`${listPath}?${listQuery(filters)}`, filters.until ? undefined : REFRESH_MS);
  const filtered = filters.status !== 'all' || filters.action || filters.since || filters.until;

  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <Stack>
      <PageTitle
        order={tenantWide ? 2 : 3}
        title={title}
        description={filters.until ? 'Newest first.' : `Newest first. Refreshes every ${REFRESH_MS / 1000} seconds.`}
      >
        <Text size="sm" c="dimmed" aria-live="off" data-testid="log-updated">
          {log.loadedAt ? `Updated ${formatTime(log.loadedAt.toISOString())}` : ''}
        </Text>
        <Button variant="default" size="xs" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => void log.refresh()}>
          Refresh
        </Button>
        {actions}
      </PageTitle>
      {banner}
      <FilterBar filters={filters} onChange={setFilters} tenantWide={tenantWide} />
      <GoToExecution to={(id) => detailPath({ id } as Execution)} />
      <ErrorAlert error={log.error} />
      {log.loading && <Loader size="sm" aria-label="Loading executions" />}
      {log.executions && log.executions.length === 0 && (
        <EmptyState icon={<IconHistory />} title={filtered ? 'No executions match these filters' : 'No executions yet'}>
          {filtered ? (
            <Button variant="default" onClick={() => setFilters({ status: 'all', action: undefined, since: undefined, until: undefined })}>
              Clear the filters
            </Button>
          ) : (
            <Text ta="center">
              Executions appear here when the platform runs {tenantWide ? 'an action' : 'this action'} (<Code>POST /api/v1/gateway/actions/…/execute</Code>)
              {tryPath && (
                <>
                  {' '}
                  or when you <Link to={tryPath}>try it</Link>
                </>
              )}
              .
            </Text>
          )}
        </EmptyState>
      )}
      {log.executions && log.executions.length > 0 && (
        <Paper withBorder radius="md">
          <TableScroll minWidth={tenantWide ? 880 : 760}>
            <Table verticalSpacing="sm" aria-label="Executions" data-testid="execution-log">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <VisuallyHidden>Show attempts</VisuallyHidden>
                  </Table.Th>
                  <Table.Th>Time</Table.Th>
                  {tenantWide && <Table.Th miw={160}>Action</Table.Th>}
                  <Table.Th>Status</Table.Th>
                  <Table.Th>HTTP</Table.Th>
                  <Table.Th>Duration</Table.Th>
                  <Table.Th>Attempts</Table.Th>
                  <Table.Th>Result or error</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {log.executions.map((execution) => (
                  <Fragment key={execution.id}>
                    <Table.Tr data-testid="execution-row" data-status={execution.status} data-id={execution.id}>
                      <Table.Td>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          onClick={() => toggle(execution.id)}
                          aria-expanded={open.has(execution.id)}
                          aria-controls={`attempts-${execution.id}`}
                          aria-label={`Attempts of the execution at ${formatTime(execution.created_at)}`}
                        >
                          {open.has(execution.id) ? <IconChevronDown size={16} aria-hidden /> : <IconChevronRight size={16} aria-hidden />}
                        </ActionIcon>
                      </Table.Td>
                      <Table.Td>
                        <Anchor component={Link} to={detailPath(execution)} size="sm" aria-label={`Open the execution at ${formatTime(execution.created_at)}`}>
                          <Time value={execution.created_at} />
                        </Anchor>
                      </Table.Td>
                      {tenantWide && (
                        <Table.Td>
                          <Anchor component={Link} to={actionPath!(execution.action_name)} ff="monospace" size="sm">
                            <Untrusted>{execution.action_name}</Untrusted>
                          </Anchor>
                        </Table.Td>
                      )}
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <StatusBadge status={execution.status} />
                          {execution.replay_of && (
                            <Badge variant="outline" color="gray" radius="sm">
                              replay
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>{execution.http_status ?? '—'}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDuration(execution.duration_ms)}</Table.Td>
                      <Table.Td>{execution.attempts}</Table.Td>
                      <Table.Td>
                        {/* Three lines at most here; the attempts row shows all of it. */}
                        {execution.error ? (
                          <Text size="sm" c="red.9" lineClamp={3}>
                            <Untrusted>{execution.error}</Untrusted>
                          </Text>
                        ) : (
                          <Text size="sm" lineClamp={3}>
                            {execution.result === null ? '—' : <Untrusted>{execution.result}</Untrusted>}
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                    {open.has(execution.id) && (
                      <Table.Tr id={`attempts-${execution.id}`}>
                        <Table.Td />
                        <Table.Td colSpan={tenantWide ? 7 : 6}>
                          <Attempts execution={execution} detailPath={detailPath(execution)} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        </Paper>
      )}
      {log.executions && log.executions.length > 0 && (
        <Group justify="center" gap="sm" data-testid="load-older">
          <Text size="sm" c="dimmed">
            {log.executions.length} shown{log.hasOlder ? ', older ones follow' : ', down to the oldest kept'}
          </Text>
          {log.hasOlder && (
            <Button variant="default" size="xs" loading={log.loadingOlder} onClick={() => void log.loadOlder()}>
              Load older
            </Button>
          )}
        </Group>
      )}
    </Stack>
  );
}

/** Status, action (tenant-wide), and the period: since (inclusive) and until (exclusive), in the reader's time. */
function FilterBar({ filters, onChange, tenantWide }: { filters: Filters; onChange: (change: Partial<Filters>) => void; tenantWide: boolean }) {
  const toPicker = (iso: string | undefined) => (iso ? dayjs(iso).format(PICKER_FORMAT) : null);
  const fromPicker = (value: string | null) => (value ? dayjs(value).toISOString() : undefined);
  const presets = [
    { value: dayjs().subtract(1, 'hour').format(PICKER_FORMAT), label: 'An hour ago' },
    { value: dayjs().subtract(1, 'day').format(PICKER_FORMAT), label: 'A day ago' },
    { value: dayjs().subtract(7, 'day').format(PICKER_FORMAT), label: 'A week ago' },
  ];
  const statusesStacked = useMatches({ base: true, sm: false });
  return (
    <Paper withBorder radius="md" p="sm">
      <Group align="flex-end" gap="md" data-testid="log-filters">
        <Stack gap={4}>
          <Input.Label labelElement="div" id="status-filter-label">
            Status
          </Input.Label>
          <SegmentedControl
            aria-labelledby="status-filter-label"
            // Five statuses side by side are wider than a phone: there they stand one above the other.
            orientation={statusesStacked ? 'vertical' : 'horizontal'}
            value={filters.status}
            onChange={(value) => onChange({ status: value as Status })}
            data={[
              { value: 'all', label: 'All' },
              { value: 'succeeded', label: 'Succeeded' },
              { value: 'failed', label: 'Failed' },
              { value: 'pending', label: 'Pending' },
              { value: 'running', label: 'Running' },
            ]}
          />
        </Stack>
        {tenantWide && <ActionFilter value={filters.action} onChange={(action) => onChange({ action })} />}
        <DateTimePicker
          label="Since"
          placeholder="The oldest kept"
          styles={PICKER_STYLES}
          clearable
          withSeconds
          presets={presets}
          valueFormat="DD MMM YYYY HH:mm:ss"
          value={toPicker(filters.since)}
          maxDate={filters.until ? dayjs(filters.until).format(PICKER_FORMAT) : undefined}
          onChange={(value) => onChange({ since: fromPicker(value) })}
          w={210}
        />
        <DateTimePicker
          label="Until"
          placeholder="Now"
          styles={PICKER_STYLES}
          clearable
          withSeconds
          valueFormat="DD MMM YYYY HH:mm:ss"
          value={toPicker(filters.until)}
          minDate={filters.since ? dayjs(filters.since).format(PICKER_FORMAT) : undefined}
          onChange={(value) => onChange({ until: fromPicker(value) })}
          w={210}
        />
      </Group>
    </Paper>
  );
}

function ActionFilter({ value, onChange }: { value: string | undefined; onChange: (action: string | undefined) => void }) {
  const { base } = useTenant();
  // At most ACTIONS_PER_TENANT (100 by default): read whole.
  const actions = usePagedList<Action>(`${base}/actions`, 'actions', { all: true });
  const names = actions.items?.map((action) => action.name) ?? [];
  return (
    <Select
      label="Action"
      placeholder="Every action"
      clearable
      searchable
      data={value && !names.includes(value) ? [value, ...names] : names}
      value={value ?? null}
      onChange={(name) => onChange(name ?? undefined)}
      w={220}
      nothingFoundMessage="No action of that name"
      error={actions.error?.message}
    />
  );
}

/** Straight to one execution by its id (a `webhook-id` from a receiver's log, an id from a support ticket). */
function GoToExecution({ to }: { to: (id: string) => string }) {
  const navigate = useNavigate();
  const [id, setId] = useState('');
  const [problem, setProblem] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = id.trim().toLowerCase();
    if (!UUID.test(wanted)) {
      setProblem('An execution id is a UUID, like 0195f3c2-7a10-7c3e-9d2b-5b1f0e6a4c21');
      return;
    }
    setProblem(undefined);
    navigate(to(wanted));
  };
  return (
    <form onSubmit={submit} aria-label="Go to an execution">
      <Group align="flex-start" gap="sm">
        <TextInput
          aria-label="Execution id"
          placeholder="Execution id (the webhook-id of its calls)"
          value={id}
          onChange={(event) => setId(event.currentTarget.value)}
          error={problem}
          w={380}
          maw="100%"
          leftSection={<IconSearch size={14} aria-hidden />}
          ff="monospace"
        />
        <Button type="submit" variant="default">
          Go to execution
        </Button>
      </Group>
    </form>
  );
}

function Attempts({ execution, detailPath }: { execution: Execution; detailPath: string }) {
  return (
    <Stack gap={4} data-testid="attempts">
      <Text size="sm">
        Execution <Code>{execution.id}</Code>{' '}
        {execution.replay_of ? (
          <>
            (a replay: every attempt carried its original&apos;s id, <Code>{execution.replay_of}</Code>, as <Code>webhook-id</Code>).
          </>
        ) : (
          <>
            (the <Code>webhook-id</Code> of every attempt).
          </>
        )}{' '}
        <Anchor component={Link} to={detailPath}>
          What was sent and what came back
        </Anchor>
      </Text>
      {execution.result && <FullText label="Result" text={execution.result} />}
      {execution.error && <FullText label="Error" text={execution.error} />}
      <Table withTableBorder aria-label="Attempts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>Started</Table.Th>
            <Table.Th>Duration</Table.Th>
            <Table.Th>HTTP</Table.Th>
            <Table.Th>Error</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(execution.attempt_log ?? []).map((attempt) => (
            <Table.Tr key={attempt.attempt} data-testid="attempt-row">
              <Table.Td>{attempt.attempt}</Table.Td>
              <Table.Td>
                <time dateTime={attempt.started_at} title={attempt.started_at} style={{ whiteSpace: 'nowrap' }}>
                  {formatClock(attempt.started_at)}
                </time>
              </Table.Td>
              <Table.Td>{formatDuration(attempt.duration_ms)}</Table.Td>
              <Table.Td>{attempt.http_status ?? '—'}</Table.Td>
              <Table.Td>
                {attempt.error ? (
                  <Untrusted>{attempt.error}</Untrusted>
                ) : (
                  <Badge color="teal" radius="sm">
                    ok
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** All of a result or error that the log's row shows three lines of. */
function FullText({ label, text }: { label: string; text: string }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <CodeBlock wrap aria-label={label} data-testid={`execution-${label.toLowerCase()}`}>
        <Untrusted>{text}</Untrusted>
      </CodeBlock>
    </Stack>
  );
}
