import { Alert, Anchor, Badge, Button, Code, Group, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconInfoCircle, IconReplace } from '@tabler/icons-react';
import { ReactNode, useState } from 'react';
import { Link, useLocation, useNavigate, useOutletContext, useParams } from 'react-router';
import { post, seg } from '../api/client';
import type { Attempt, Execution, ExecutionWithPayload, LoggedAttempt, LoggedBody } from '../api/types';
import { useApi } from '../api/use-api';
import { CodeBlock } from '../components/CodeBlock';
import { ConfirmButton } from '../components/ConfirmButton';
import { ErrorAlert } from '../components/ErrorAlert';
import { Field } from '../components/Field';
import { formatClock, formatDuration } from '../components/format';
import { PageTitle } from '../components/PageTitle';
import { StatusBadge } from '../components/StatusBadge';
import { TableScroll } from '../components/TableScroll';
import { Time } from '../components/Time';
import { Untrusted } from '../components/Untrusted';
import type { ActionContext, TenantContext } from './tenant-context';

/**
 * One execution: under an action (its log's rows and lookup), or under the tenant, found by its id alone (the
 * tenant-wide log, "Go to execution"), where its action is shown and linked.
 */
export function ExecutionPage() {
  const context = useOutletContext<TenantContext & Partial<ActionContext>>();
  const { executionId = '' } = useParams();
  const { base, actionBase } = context;
  const under = actionBase ?? base;
  return (
    <ExecutionDetail
      path={`${under}/executions/${seg(executionId)}`}
      logPath={`${under}/executions`}
      logLabel={actionBase ? 'Back to the execution log' : 'Back to the executions'}
      detailPath={(id) => `${under}/executions/${id}`}
      actionBase={(execution) => actionBase ?? `${base}/actions/${seg(execution.action_name)}`}
      showAction={!actionBase}
      order={actionBase ? 3 : 2}
      elsewhere={actionBase ? `${base}/executions/${seg(executionId)}` : undefined}
    />
  );
}

interface DetailProps {
  /** The management API path of the lookup. */
  path: string;
  logPath: string;
  logLabel: string;
  /** The console's path of another execution (the original of a replay, a replay just made). */
  detailPath: (id: string) => string;
  actionBase: (execution: Execution) => string;
  showAction?: boolean;
  /** The page title's heading level: 2 under the tenant, 3 under an action; sections go one below. */
  order: 2 | 3;
  /** Under an action: where the tenant-wide lookup of the same id is (an id of another action's execution). */
  elsewhere?: string;
}

/**
 * What the execution sent and what came back: its summary, the body as forwarded (the bytes signed) and the headers
 * sent, and each attempt's answer (status, headers, body), each cut marked; a button to run it again. Everything a
 * receiver wrote is shown as text (Untrusted).
 */
function ExecutionDetail({ path, logPath, logLabel, detailPath, actionBase, showAction = false, order, elsewhere }: DetailProps) {
  const section = (order + 1) as 3 | 4;
  const [unfinished, setUnfinished] = useState(false);
  // An execution accepted to run in the background is read again until it finishes.
  const loaded = useApi<{ execution: ExecutionWithPayload }>(path, { refreshMs: unfinished ? PROGRESS_REFRESH_MS : undefined });
  const navigate = useNavigate();
  const execution = loaded.data?.execution;
  const nowUnfinished = execution !== undefined && isUnfinished(execution);
  if (nowUnfinished !== unfinished) setUnfinished(nowUnfinished);
  // The replay just made, said on its own page in the flow of it (a toast covered the request's text).
  const replayed = (useLocation().state as ReplayedState | null)?.replayed;
  const [dismissed, setDismissed] = useState<string>();
  const replay = async () => {
    const { execution: made } = await post<{ execution: Execution }>(`${actionBase(execution!)}/executions/${execution!.id}/replay`);
    navigate(detailPath(made.id), { state: { replayed: { id: made.id, status: made.status } } satisfies ReplayedState });
  };

  const back = (
    <Anchor component={Link} to={logPath} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        {logLabel}
      </Group>
    </Anchor>
  );
  if (loaded.error && !execution) {
    return (
      <Stack>
        {back}
        <ErrorAlert error={loaded.error} />
        {elsewhere && loaded.error.status === 404 && (
          <Text size="sm">
            Not an execution of this action.{' '}
            <Anchor component={Link} to={elsewhere}>
              Look for it among all the tenant&apos;s executions
            </Anchor>
          </Text>
        )}
      </Stack>
    );
  }
  if (!execution) return <Loader size="sm" aria-label="Loading the execution" />;

  const payload = execution.payload;
  return (
    <Stack data-testid="execution-detail">
      {back}
      <PageTitle
        order={order}
        title={
          <>
            Execution <Code fz="inherit">{execution.id}</Code>
          </>
        }
        description={webhookIdSentence(execution)}
      >
        <ConfirmButton
          color="blue"
          variant="filled"
          size="sm"
          leftSection={<IconReplace size={16} aria-hidden />}
          disabled={payload.status !== 'kept'}
          title="Replay this execution?"
          message={<ReplayWarning execution={execution} />}
          confirmLabel="Send it again"
          confirmColor={execution.status === 'succeeded' ? 'red' : 'blue'}
          onConfirm={replay}
        >
          Replay
        </ConfirmButton>
      </PageTitle>
      {replayed?.id === execution.id && dismissed !== execution.id && (
        <Alert
          color={replayed.status === 'succeeded' ? 'teal' : 'red'}
          variant="light"
          title={`Replayed: ${replayed.status}`}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setDismissed(execution.id)}
          data-testid="replayed"
        >
          The replay is a new execution, this one; its original is linked under Replay of.
        </Alert>
      )}
      {nowUnfinished && <Progress execution={execution} />}
      <Paper withBorder p="lg" radius="md">
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="lg">
          <Field label="Status">
            <StatusBadge status={execution.status} />
          </Field>
          {showAction && (
            <Field label="Action">
              <Anchor component={Link} to={actionBase(execution)} ff="monospace" size="sm">
                <Untrusted>{execution.action_name}</Untrusted>
              </Anchor>
            </Field>
          )}
          <Field label="Created">
            <Time value={execution.created_at} />
          </Field>
          <Field label="Duration">{nowUnfinished ? '—' : formatDuration(execution.duration_ms)}</Field>
          <Field label="HTTP status">{execution.http_status ?? '—'}</Field>
          <Field label="Attempts">{execution.attempts}</Field>
          <Field label="Replay of">
            {execution.replay_of ? (
              <Anchor component={Link} to={detailPath(execution.replay_of)} ff="monospace" size="sm" data-testid="replay-of">
                {execution.replay_of}
              </Anchor>
            ) : (
              '—'
            )}
          </Field>
          <Field label="Idempotency key">
            {execution.idempotency_key === null ? (
              '—'
            ) : (
              <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }} data-testid="idempotency-key">
                <Untrusted>{execution.idempotency_key}</Untrusted>
              </Text>
            )}
          </Field>
        </SimpleGrid>
      </Paper>
      {payload.status !== 'kept' && payload.status !== 'pending' && (
        <Alert color="gray" variant="light" icon={<IconInfoCircle aria-hidden />} title="What was sent and what came back is not kept" data-testid="payload-missing">
          {payload.status === 'not_logged'
            ? 'Payload logging was off for this action when it ran (its Definition page has the switch), so neither the parameters nor the answers were kept, and it cannot be replayed.'
            : 'Payloads are kept for fewer days than executions (EXECUTION_PAYLOAD_RETENTION_DAYS): this one has expired, so it cannot be replayed.'}
        </Alert>
      )}
      {execution.result && <Section order={section} title="Result">{<TextBlock label="Result" text={execution.result} />}</Section>}
      {execution.error && <Section order={section} title="Error">{<TextBlock label="Error" text={execution.error} />}</Section>}
      {payload.request && (
        <Section order={section} title="Request sent" description="The last attempt's: the exact bytes signed and sent, and the headers (earlier attempts differ in their timestamp and signature).">
          <Stack gap="xs" data-testid="request-sent">
            <Headers label="Request headers" headers={payload.request.headers} />
            <Body label="Request body" body={payload.request} limit="64 KiB" />
          </Stack>
        </Section>
      )}
      <Section order={section} title="Attempts">
        <Stack gap="md">
          {execution.attempt_log.map((attempt) => (
            <AttemptCard key={attempt.attempt} order={(section + 1) as 4 | 5} attempt={attempt} logged={payload.attempts?.find((candidate) => candidate.attempt === attempt.attempt)} />
          ))}
        </Stack>
      </Section>
    </Stack>
  );
}

/** What the page of a replay just made is told by the one it was made from (router state). */
interface ReplayedState {
  replayed?: { id: string; status: Execution['status'] };
}

/** What replaying sends, and what it may do again: a succeeded execution's receiver acted on it already. */
function ReplayWarning({ execution }: { execution: Pick<Execution, 'status'> }) {
  return (
    <Stack gap="xs">
      <Text size="sm">The request is signed again and sent to the action&apos;s webhook now, as a new execution carrying this one&apos;s webhook-id.</Text>
      {execution.status === 'succeeded' ? (
        <Text size="sm" fw={600} data-testid="replay-succeeded-warning">
          This execution succeeded: its receiver has acted on it already, and may act again (an order placed twice, a message sent twice) unless it drops webhook-ids it has seen.
        </Text>
      ) : (
        <Text size="sm">This execution {execution.status === 'failed' ? 'failed' : 'has not finished'}: a receiver that handled it after all can drop the replay by its webhook-id.</Text>
      )}
    </Stack>
  );
}

/** How often the page of an unfinished execution reads it again. */
const PROGRESS_REFRESH_MS = 2_000;

const isUnfinished = (execution: Pick<Execution, 'status'>) => execution.status === 'pending' || execution.status === 'running';

/** Where an execution accepted to run in the background has got to: its state, and its attempts so far. */
function Progress({ execution }: { execution: Execution }) {
  const failures = execution.attempts;
  const state =
    execution.status === 'pending'
      ? 'It is waiting for a replica to run it.'
      : failures === 0
        ? 'Its call is out: the receiver has not answered yet.'
        : `${failures} attempt${failures === 1 ? '' : 's'} failed so far (below); it is being tried again.`;
  return (
    <Alert color="blue" variant="light" icon={<Loader size={16} aria-hidden />} title={`In progress: ${execution.status}`} data-testid="execution-progress" aria-live="polite">
      Accepted to run in the background (Prefer: respond-async, or an MCP task). {state} This page reads it again every{' '}
      {PROGRESS_REFRESH_MS / 1_000} seconds until it has finished.
    </Alert>
  );
}

/**
 * Which webhook-id the attempts carried: an execution's own id, but a replay's is its original's (Standard Webhooks:
 * the same id when a message is sent again), so that a receiver that handled the original drops the replay.
 */
export function webhookIdSentence(execution: Pick<Execution, 'replay_of'>): string {
  return execution.replay_of
    ? `A replay: every attempt carried its original's id, ${execution.replay_of}, as its webhook-id (not this id), so a receiver that handled the original can drop it.`
    : 'Its webhook-id: every attempt carried it, so a receiver can drop duplicates.';
}

function AttemptCard({ attempt, logged, order }: { attempt: Attempt; logged: LoggedAttempt | undefined; order: 4 | 5 }) {
  const response = logged?.response;
  return (
    <Paper withBorder radius="md" p="md" data-testid="attempt">
      <Stack gap="xs">
        <Group gap="sm">
          <Title order={order}>Attempt {attempt.attempt}</Title>
          <Text size="sm" c="dimmed">
            started{' '}
            <time dateTime={attempt.started_at} title={attempt.started_at}>
              {formatClock(attempt.started_at)}
            </time>
            , {formatDuration(attempt.duration_ms)}
          </Text>
          {attempt.http_status !== null && (
            <Badge color={attempt.http_status < 300 ? 'teal' : 'red'} variant="outline" radius="sm">
              HTTP {attempt.http_status}
            </Badge>
          )}
        </Group>
        {attempt.error && (
          <Text size="sm" c="red.9">
            <Untrusted>{attempt.error}</Untrusted>
          </Text>
        )}
        {logged && <Headers label={`Request headers of attempt ${attempt.attempt}`} headers={logged.request_headers} collapsed />}
        {logged && !response && (
          <Text size="sm" c="dimmed">
            No answer came (a timeout, or the connection failed).
          </Text>
        )}
        {response && (
          <>
            <Text size="sm" fw={600}>
              Response: {response.status}
            </Text>
            <Headers label={`Response headers of attempt ${attempt.attempt}`} headers={response.headers} />
            <Body label={`Response body of attempt ${attempt.attempt}`} body={response} limit="16 KiB" />
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** Headers as a two-column table; names and values are text (a receiver's answer is not the console's). */
function Headers({ label, headers, collapsed = false }: { label: string; headers: Record<string, string>; collapsed?: boolean }) {
  const [open, setOpen] = useState(!collapsed);
  const entries = Object.entries(headers);
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <Text size="xs" c="dimmed">
          ({entries.length})
        </Text>
        {collapsed && (
          <Button variant="subtle" size="compact-xs" onClick={() => setOpen(!open)} aria-expanded={open}>
            {open ? 'Hide' : 'Show'}
          </Button>
        )}
      </Group>
      {open && entries.length > 0 && (
        <Paper withBorder radius="sm">
          <TableScroll minWidth={360}>
            <Table aria-label={label} verticalSpacing={4} fz="xs" ff="monospace" layout="fixed" data-testid="headers">
              <Table.Tbody>
                {entries.map(([name, value]) => (
                  <Table.Tr key={name}>
                    <Table.Th w="30%" style={{ overflowWrap: 'anywhere' }}>
                      <Untrusted>{name}</Untrusted>
                    </Table.Th>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Untrusted>{value}</Untrusted>
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

const bytes = new Intl.NumberFormat('en-GB');

/** A logged body: the text as it was (or base64), a cut marked with what was kept of how much, JSON formattable. */
function Body({ label, body, limit }: { label: string; body: LoggedBody; limit: string }) {
  const [formatted, setFormatted] = useState(false);
  if (body.body === null) {
    return (
      <Text size="sm" c="dimmed">
        No body.
      </Text>
    );
  }
  const pretty = body.body_encoding === 'utf8' && !body.body_truncated ? prettyJson(body.body) : undefined;
  const size = body.body_bytes < 0 ? 'over 1 MB' : `${bytes.format(body.body_bytes)} bytes`;
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <Text size="xs" c="dimmed">
          {size}
          {body.body_encoding === 'base64' && ', not UTF-8: shown as base64'}
        </Text>
        {body.body_truncated && (
          <Badge color="yellow" variant="filled" radius="sm" data-testid="cut-marker">
            cut: the first {limit} kept
          </Badge>
        )}
        {pretty !== undefined && (
          <SegmentedControl
            size="xs"
            aria-label={`How to show the ${label.toLowerCase()}`}
            value={formatted ? 'formatted' : 'exact'}
            onChange={(value) => setFormatted(value === 'formatted')}
            data={[
              { value: 'exact', label: 'As sent' },
              { value: 'formatted', label: 'Formatted' },
            ]}
          />
        )}
      </Group>
      <TextBlock label={label} text={formatted && pretty !== undefined ? pretty : body.body} />
    </Stack>
  );
}

function prettyJson(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return undefined;
  }
}

function TextBlock({ label, text }: { label: string; text: string }) {
  return (
    <CodeBlock wrap aria-label={label} data-testid="body">
      <Untrusted>{text}</Untrusted>
    </CodeBlock>
  );
}

function Section({ title, description, order, children }: { title: string; description?: string; order: 3 | 4; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Title order={order}>{title}</Title>
      {description && (
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      )}
      {children}
    </Stack>
  );
}
