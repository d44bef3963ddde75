import { Badge, Button, Group, Paper, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { CodeBlock } from '../components/CodeBlock';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconPlayerPlay } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { del, put } from '../api/client';
import type { Circuit, LogSettings } from '../api/types';
import { useApi } from '../api/use-api';
import { useSend } from '../api/use-send';
import { ErrorAlert } from '../components/ErrorAlert';
import { Field } from '../components/Field';
import { ConfirmButton } from '../components/ConfirmButton';
import { Time } from '../components/Time';
import { Untrusted } from '../components/Untrusted';
import { useAction } from './tenant-context';

/** What an action is: webhook, schema (pretty-printed), dates; edit, try or delete it. */
export function ActionOverviewPage() {
  const { action, actionBase, base } = useAction();
  const navigate = useNavigate();

  return (
    <Stack>
      <Group justify="flex-end">
        <Button component={Link} to={`${actionBase}/try`} leftSection={<IconPlayerPlay size={16} aria-hidden />}>
          Try it
        </Button>
        <Button component={Link} to={`${actionBase}/edit`} variant="default" leftSection={<IconPencil size={16} aria-hidden />}>
          Edit
        </Button>
        <ConfirmButton
          size="sm"
          title={
            <>
              Delete <Untrusted>{action.name}</Untrusted>?
            </>
          }
          message="The action and its whole execution log are deleted. The platform can no longer run it."
          confirmLabel="Delete action"
          onConfirm={async () => {
            await del(actionBase);
            notifications.show({ color: 'teal', title: 'Action deleted', message: <Untrusted>{action.name}</Untrusted> });
            navigate(`${base}/actions`);
          }}
        >
          Delete
        </ConfirmButton>
      </Group>
      <Paper withBorder p="lg" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Field label="Webhook URL">
            <Text ff="monospace" size="sm">
              <Untrusted>{action.webhook_url}</Untrusted>
            </Text>
          </Field>
          <Field label="Created">
            <Time value={action.created_at} />
          </Field>
          <Field label="Updated">
            <Time value={action.updated_at} />
          </Field>
        </SimpleGrid>
      </Paper>
      <ReceiverCircuit actionBase={actionBase} />
      <PayloadLogging actionBase={actionBase} />
      <Stack gap="xs">
        <Title order={3}>JSON Schema of the parameters</Title>
        <CodeBlock aria-label="JSON Schema of the parameters" data-testid="action-schema">
          {JSON.stringify(action.json_schema, null, 2)}
        </CodeBlock>
      </Stack>
    </Stack>
  );
}

/**
 * The action's log setting: whether its executions keep what was sent and what came back (parameters may carry
 * personal data). Not a field of the Action (spec 2.1 fixes those): its own resource, `…/log-settings`.
 */
function PayloadLogging({ actionBase }: { actionBase: string }) {
  const settings = useApi<{ log_settings: LogSettings }>(`${actionBase}/log-settings`);
  const change = useSend(async (on: boolean) => {
    await put(`${actionBase}/log-settings`, { payload_logging: on });
    await settings.reload();
    notifications.show({ color: 'teal', title: on ? 'Payload logging on' : 'Payload logging off', message: 'From the next execution on.' });
  });
  const on = settings.data?.log_settings.payload_logging;
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="xs">
        <Title order={3}>Delivery log</Title>
        <Switch
          label="Keep what was sent and what came back (payload logging)"
          description={
            on === false
              ? 'Off: executions keep their status, timing and attempts, but not the parameters, the headers or the answers, and cannot be replayed.'
              : 'On: each execution keeps the body as forwarded, the headers sent and each answer, for a limited time, so it can be inspected and replayed. Turn it off when the parameters carry personal data.'
          }
          checked={on ?? false}
          disabled={on === undefined || change.busy}
          onChange={(event) => void change.send(event.currentTarget.checked)}
          data-testid="payload-logging"
        />
        <ErrorAlert error={settings.error ?? change.error} />
      </Stack>
    </Paper>
  );
}

const CIRCUIT_COLORS: Record<Circuit['state'], string> = { closed: 'teal', open: 'red', half_open: 'yellow' };

/**
 * The action's circuit breaker: whether executions reach the receiver, or fail at once because it kept failing.
 * Each replica keeps its own, so this is the answering replica's view. Not a field of the Action: `…/circuit`.
 */
function ReceiverCircuit({ actionBase }: { actionBase: string }) {
  const circuit = useApi<{ circuit: Circuit }>(`${actionBase}/circuit`);
  const current = circuit.data?.circuit;
  return (
    <Paper withBorder p="lg" radius="md" data-testid="circuit" data-state={current?.state}>
      <Stack gap="xs">
        <Group gap="sm">
          <Title order={3}>Receiver circuit</Title>
          {current && (
            <Badge color={CIRCUIT_COLORS[current.state]} variant="filled" radius="sm">
              {current.state.replace('_', '-')}
            </Badge>
          )}
        </Group>
        {current && (
          <Text size="sm" data-testid="circuit-summary">
            {current.state === 'closed' && (
              <>
                Executions go to the receiver. {current.consecutive_failures > 0 && `${current.consecutive_failures} failed in a row so far. `}
                {current.since && (
                  <>
                    Closed since <Time value={current.since} />.
                  </>
                )}
              </>
            )}
            {current.state === 'open' && (
              <>
                Open since <Time value={current.since} /> after {current.consecutive_failures} failed executions in a row: executions fail at once, nothing is
                sent, until <Time value={current.retry_at} />; the next one after that is the probe.
              </>
            )}
            {current.state === 'half_open' && (
              <>Half-open since <Time value={current.since} />: one probe call is under way; other executions fail at once until it ends.</>
            )}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          Connection failures, timeouts and 429/5xx answers count; each replica of the service keeps its own circuit.
        </Text>
        <ErrorAlert error={circuit.error} />
      </Stack>
    </Paper>
  );
}
