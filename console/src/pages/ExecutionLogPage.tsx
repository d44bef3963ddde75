import { ActionIcon, Badge, Button, Code, Group, Loader, Paper, SegmentedControl, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconHistory, IconRefresh } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import type { Execution } from '../api/types';
import { useApi } from '../api/use-api';
import { CodeBlock } from '../components/CodeBlock';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { formatClock, formatDuration, formatTime } from '../components/format';
import { PageTitle } from '../components/PageTitle';
import { StatusBadge } from '../components/StatusBadge';
import { TableScroll } from '../components/TableScroll';
import { Time } from '../components/Time';
import { Untrusted } from '../components/Untrusted';
import { useAction } from './tenant-context';

export const REFRESH_MS = 3_000;
type Filter = 'all' | 'succeeded' | 'failed';

/** The action's executions, newest first, with each attempt; filtered by status; follows new ones by itself. */
export function ExecutionLogPage() {
  const { actionBase } = useAction();
  const [filter, setFilter] = useState<Filter>('all');
  const [open, setOpen] = useState<Set<string>>(new Set());
  const query = `limit=50${filter === 'all' ? '' : `&status=${filter}`}`;
  const log = useApi<{ executions: Execution[] }>(`${actionBase}/executions?${query}`, { refreshMs: REFRESH_MS });

  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <Stack>
      <PageTitle order={3} title="Execution log" description={`Newest first. Refreshes every ${REFRESH_MS / 1000} seconds.`}>
        <Text size="sm" c="dimmed" aria-live="off" data-testid="log-updated">
          {log.loadedAt ? `Updated ${formatTime(log.loadedAt.toISOString())}` : ''}
        </Text>
        <Button variant="default" size="xs" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => void log.reload()}>
          Refresh
        </Button>
      </PageTitle>
      <Group>
        <Text size="sm" fw={600} id="status-filter-label">
          Status
        </Text>
        <SegmentedControl
          aria-labelledby="status-filter-label"
          value={filter}
          onChange={(value) => setFilter(value as Filter)}
          data={[
            { value: 'all', label: 'All' },
            { value: 'succeeded', label: 'Succeeded' },
            { value: 'failed', label: 'Failed' },
          ]}
        />
      </Group>
      <ErrorAlert error={log.error} />
      {/* A new filter's first answer: the old filter's rows are not shown meanwhile (useApi drops them). */}
      {log.loading && <Loader size="sm" aria-label="Loading executions" />}
      {log.data && log.data.executions.length === 0 && (
        <EmptyState icon={<IconHistory />} title={filter === 'all' ? 'No executions yet' : `No ${filter} executions`}>
          <Text ta="center">
            Executions appear here when the platform runs this action (<Code>POST /api/v1/gateway/actions/…/execute</Code>) or when you{' '}
            <Link to={`${actionBase}/try`}>try it</Link>.
          </Text>
        </EmptyState>
      )}
      {log.data && log.data.executions.length > 0 && (
        <Paper withBorder radius="md">
          <TableScroll minWidth={720}>
            <Table verticalSpacing="sm" aria-label="Executions" data-testid="execution-log">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <VisuallyHidden>Show attempts</VisuallyHidden>
                  </Table.Th>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>HTTP</Table.Th>
                  <Table.Th>Duration</Table.Th>
                  <Table.Th>Attempts</Table.Th>
                  <Table.Th>Result or error</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {log.data.executions.map((execution) => (
                  <Fragment key={execution.id}>
                    <Table.Tr data-testid="execution-row" data-status={execution.status}>
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
                        <Time value={execution.created_at} />
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge status={execution.status} />
                      </Table.Td>
                      <Table.Td>{execution.http_status ?? '—'}</Table.Td>
                      <Table.Td>{formatDuration(execution.duration_ms)}</Table.Td>
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
                        <Table.Td colSpan={6}>
                          <Attempts execution={execution} />
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
    </Stack>
  );
}

function Attempts({ execution }: { execution: Execution }) {
  return (
    <Stack gap={4} data-testid="attempts">
      <Text size="sm">
        Execution <Code>{execution.id}</Code> (the <Code>webhook-id</Code> of every attempt)
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
