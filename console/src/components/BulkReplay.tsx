import { Alert, Button, CloseButton, Group, Modal, Paper, Progress, Stack, Text } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useDisclosure } from '@mantine/hooks';
import { IconReplace } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { post } from '../api/client';
import type { BulkReplay } from '../api/types';
import { useApi } from '../api/use-api';
import { useSend } from '../api/use-send';
import { ErrorAlert } from './ErrorAlert';
import { formatTime } from './format';
import { Untrusted } from './Untrusted';

/** How often a running bulk replay's progress is read. */
export const PROGRESS_MS = 1_000;
/** The address's parameter naming the bulk replay whose progress the page shows (a reload keeps showing it). */
const PARAM = 'replay';

/**
 * "Replay failed since …": asks for the time (the log's Since filter, else an hour ago), starts the bulk replay
 * of the action's failed executions from then to now, and names it in the address for BulkReplayProgress.
 */
export function BulkReplayButton({ actionBase, actionName, suggestedSince }: { actionBase: string; actionName: string; suggestedSince?: string }) {
  const [opened, { open, close }] = useDisclosure(false);
  const [since, setSince] = useState<string | null>(null);
  const [, setParams] = useSearchParams();
  const { send, busy, error, clearError } = useSend(async () => {
    const { replay } = await post<{ replay: BulkReplay }>(`${actionBase}/executions/replay`, { since: dayjs(since).toISOString() });
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set(PARAM, replay.id);
      return next;
    });
    close();
  });

  return (
    <>
      <Button
        variant="default"
        size="xs"
        leftSection={<IconReplace size={14} aria-hidden />}
        onClick={() => {
          clearError();
          setSince(dayjs(suggestedSince ?? dayjs().subtract(1, 'hour').toISOString()).format('YYYY-MM-DD HH:mm:ss'));
          open();
        }}
      >
        Replay failed since…
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        centered
        title={
          <>
            Replay the failed executions of <Untrusted>{actionName}</Untrusted>
          </>
        }
      >
        <Stack>
          <Text size="sm">
            Each execution that failed from then until now is run again, oldest first, with its parameters, against the action as it is now: a new
            execution each, under the original&apos;s webhook-id. One a replay has delivered since is left out, and a failed replay is not
            replayed itself (its original is), so running this again sends each original at most once. At most 1,000; each counts against
            the tenant&apos;s hourly request budget, and the replay stops when it is spent.
          </Text>
          <DateTimePicker
            label="Failed since"
            withSeconds
            valueFormat="DD MMM YYYY HH:mm:ss"
            value={since}
            onChange={setSince}
            maxDate={dayjs().format('YYYY-MM-DD HH:mm:ss')}
            popoverProps={{ withinPortal: true }}
            required
          />
          <ErrorAlert error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button loading={busy} disabled={!since} onClick={() => void send()}>
              Replay failed executions
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** The progress of the bulk replay named in the address: done and left, read every second until it has finished. */
export function BulkReplayProgress({ actionBase }: { actionBase: string }) {
  const [params, setParams] = useSearchParams();
  const id = params.get(PARAM);
  const [running, setRunning] = useState(true);
  const replay = useApi<{ replay: BulkReplay }>(id ? `${actionBase}/replays/${encodeURIComponent(id)}` : undefined, {
    refreshMs: running ? PROGRESS_MS : undefined,
  });
  const shown = replay.data?.replay;
  // Read until it has finished (the page's next replay starts reading again).
  const nowRunning = !shown || shown.status === 'running';
  if (nowRunning !== running) setRunning(nowRunning);
  if (!id) return null;

  const dismiss = () =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.delete(PARAM);
      return next;
    });
  if (!shown) {
    return replay.error ? (
      <Alert color="red" variant="light" title="Bulk replay" withCloseButton closeButtonLabel="Dismiss" onClose={dismiss} role="alert">
        {replay.error.message}
      </Alert>
    ) : null;
  }
  const percent = shown.total === 0 ? 100 : Math.round((shown.done / shown.total) * 100);
  const color = shown.status === 'stopped' ? 'orange' : shown.status === 'done' ? 'teal' : 'blue';
  return (
    <Paper withBorder radius="md" p="md" data-testid="bulk-replay" data-status={shown.status} aria-live="polite">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600}>
            {shown.status === 'running' ? 'Replaying' : shown.status === 'done' ? 'Replayed' : 'Replay stopped:'} the failed executions since{' '}
            {formatTime(shown.since)}
          </Text>
          {shown.status !== 'running' && <CloseButton aria-label="Dismiss the bulk replay" onClick={dismiss} />}
        </Group>
        <Progress value={percent} color={color} size="lg" aria-label="Bulk replay progress" animated={shown.status === 'running'} />
        <Text size="sm" data-testid="bulk-replay-counts">
          {shown.done} done, {shown.left} left of {shown.total} · {shown.succeeded} succeeded, {shown.failed} failed again, {shown.skipped} skipped
        </Text>
        {shown.stopped_reason && (
          <Text size="sm" c="orange.9">
            <Untrusted>{shown.stopped_reason}</Untrusted>
          </Text>
        )}
        {shown.skipped > 0 && (
          <Text size="sm" c="dimmed">
            Skipped: executions whose payload was not kept (payload logging off, or expired) or whose parameters the action&apos;s schema no longer
            accepts.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
