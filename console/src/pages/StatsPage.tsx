import { BarChart, LineChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Anchor, Group, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { Link, useOutletContext } from 'react-router';
import { seg } from '../api/client';
import type { ExecutionStats, StatsPoint } from '../api/types';
import { useApi } from '../api/use-api';
import { ErrorAlert } from '../components/ErrorAlert';
import { formatDuration } from '../components/format';
import { PageTitle } from '../components/PageTitle';
import { TableScroll } from '../components/TableScroll';
import { Untrusted } from '../components/Untrusted';
import { tickIndexes } from './axis-ticks';
import type { ActionContext, TenantContext } from './tenant-context';
import { useState } from 'react';

/** The numbers are rollups kept as executions are stored: reading them again every minute is plenty. */
export const STATS_REFRESH_MS = 60_000;
/** The duration chart's value axis ("1,234 ms"), the wider of the two. */
const DURATION_AXIS_PX = 76;

const dayOfHour = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const count = new Intl.NumberFormat('en-GB');

type Period = 'hourly' | 'daily';

/**
 * Executions succeeded and failed, and the p50/p95 duration, per hour for the last 48 hours or per day for the
 * retention window: of the tenant (with each action's last 24 hours), or of the action open in the page. Loaded
 * only when opened (the chart library is the console's largest part after the schema form).
 */
export default function StatsPage() {
  const context = useOutletContext<TenantContext & Partial<ActionContext>>();
  const actionName = context.action?.name;
  const stats = useApi<{ stats: ExecutionStats }>(`${context.base}/stats${actionName ? `?action=${seg(actionName)}` : ''}`, { refreshMs: STATS_REFRESH_MS });
  const [period, setPeriod] = useState<Period>('hourly');

  const data = stats.data?.stats;
  const points = data ? data[period] : [];
  const chart = points.map((point) => ({ ...point, label: label(point, period) }));
  // Both charts label the same points, chosen for the width of the plot (the card less the wider value axis).
  const { ref: chartBox, width: chartWidth } = useElementSize();
  const ticks = tickIndexes(
    points.map((point) => point.start),
    period,
    chartWidth - DURATION_AXIS_PX - 16,
  ).map((index) => chart[index].label);
  const xAxisProps = { ticks, interval: 0, tickFormatter: tick } as const;
  const total = sum(points);
  // Under the tenant the page title is an h2, under an action an h3; the charts' titles one below.
  const heading = actionName ? 4 : 3;
  return (
    <Stack>
      <PageTitle
        order={actionName ? 3 : 2}
        title="Statistics"
        description={`${actionName ? 'This action\'s' : 'The tenant\'s'} executions, per ${period === 'hourly' ? 'hour (your time)' : 'day (UTC)'}. The last ${period === 'hourly' ? 'hour' : 'day'} is still counting.`}
      >
        <SegmentedControl
          aria-label="Period"
          value={period}
          onChange={(value) => setPeriod(value as Period)}
          data={[
            { value: 'hourly', label: 'Last 48 hours' },
            { value: 'daily', label: data ? `Last ${data.daily.length} days` : 'Per day' },
          ]}
        />
      </PageTitle>
      <ErrorAlert error={stats.error} />
      {!data && !stats.error && <Loader size="sm" aria-label="Loading the statistics" />}
      {data && (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }} data-testid="stats-totals">
            <Total label="Executions" value={count.format(total.executions)} />
            <Total label="Succeeded" value={count.format(total.succeeded)} />
            <Total label="Failed" value={count.format(total.failed)} />
            <Total label="Success rate" value={total.executions === 0 ? '—' : `${((total.succeeded / total.executions) * 100).toFixed(1)} %`} />
          </SimpleGrid>
          <Paper withBorder radius="md" p="md">
            <Stack gap="xs">
              <Title order={heading}>Executions</Title>
              <div ref={chartBox} role="img" aria-label={`Executions succeeded and failed per ${period === 'hourly' ? 'hour' : 'day'}`} data-testid="chart-executions">
                <BarChart
                  h={240}
                  data={chart}
                  dataKey="label"
                  type="stacked"
                  withLegend
                  legendProps={{ verticalAlign: 'bottom' }}
                  tooltipAnimationDuration={0}
                  series={[
                    { name: 'succeeded', label: 'Succeeded', color: 'teal.6' },
                    { name: 'failed', label: 'Failed', color: 'red.6' },
                  ]}
                  xAxisProps={xAxisProps}
                  yAxisProps={{ allowDecimals: false, width: 48 }}
                  valueFormatter={(value) => count.format(value)}
                />
              </div>
            </Stack>
          </Paper>
          <Paper withBorder radius="md" p="md">
            <Stack gap="xs">
              <Title order={heading}>Duration</Title>
              <Text size="sm" c="dimmed">
                Median (p50) and 95th percentile (p95), from every attempt to the answer; empty where nothing ran.
              </Text>
              <div role="img" aria-label={`Median and 95th percentile duration per ${period === 'hourly' ? 'hour' : 'day'}`} data-testid="chart-duration">
                <LineChart
                  h={240}
                  data={chart}
                  dataKey="label"
                  withLegend
                  legendProps={{ verticalAlign: 'bottom' }}
                  tooltipAnimationDuration={0}
                  connectNulls={false}
                  curveType="linear"
                  series={[
                    { name: 'p50_ms', label: 'p50', color: 'blue.6' },
                    { name: 'p95_ms', label: 'p95', color: 'orange.6' },
                  ]}
                  xAxisProps={xAxisProps}
                  yAxisProps={{ width: DURATION_AXIS_PX }}
                  valueFormatter={(value) => formatDuration(value)}
                />
              </div>
            </Stack>
          </Paper>
          {data.actions && <PerAction base={context.base} actions={data.actions} />}
        </>
      )}
    </Stack>
  );
}

function PerAction({ base, actions }: { base: string; actions: NonNullable<ExecutionStats['actions']> }) {
  return (
    <Stack gap="xs">
      <Title order={3}>Each action, the last 24 hours</Title>
      <Paper withBorder radius="md">
        <TableScroll minWidth={640}>
          <Table verticalSpacing="xs" aria-label="Each action, the last 24 hours" data-testid="stats-actions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Action</Table.Th>
                <Table.Th ta="right">Executions</Table.Th>
                <Table.Th ta="right">Succeeded</Table.Th>
                <Table.Th ta="right">Failed</Table.Th>
                <Table.Th ta="right">p50</Table.Th>
                <Table.Th ta="right">p95</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {actions.map((action) => (
                <Table.Tr key={action.action_name}>
                  <Table.Td>
                    <Anchor component={Link} to={`${base}/actions/${seg(action.action_name)}/stats`} ff="monospace" size="sm">
                      <Untrusted>{action.action_name}</Untrusted>
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right">{count.format(action.executions)}</Table.Td>
                  <Table.Td ta="right">{count.format(action.succeeded)}</Table.Td>
                  <Table.Td ta="right">{count.format(action.failed)}</Table.Td>
                  <Table.Td ta="right">{action.p50_ms === null ? '—' : formatDuration(action.p50_ms)}</Table.Td>
                  <Table.Td ta="right">{action.p95_ms === null ? '—' : formatDuration(action.p95_ms)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      </Paper>
    </Stack>
  );
}

function Total({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" align="flex-end">
        <Stack gap={0}>
          <Text size="xs" fw={700} tt="uppercase" c="dimmed">
            {label}
          </Text>
          <Text fz="xl" fw={700}>
            {value}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}

/**
 * A point's name, as the tooltip shows it: an hour with its day in the reader's time (48 hours hold each time of
 * day twice), or a UTC day (the rollups' days are UTC days).
 */
function label(point: StatsPoint, period: Period): string {
  const start = new Date(point.start);
  return period === 'daily' ? day.format(start) : dayOfHour.format(start);
}

/** The axis keeps it short: the time of an hour ("14:00"), its day at midnight ("27 Nov"), a day as it is. */
function tick(name: string): string {
  const [date, time] = name.split(', ');
  if (time === undefined) return name;
  return time === '00:00' ? date : time;
}

function sum(points: StatsPoint[]): { executions: number; succeeded: number; failed: number } {
  return points.reduce(
    (total, point) => ({ executions: total.executions + point.executions, succeeded: total.succeeded + point.succeeded, failed: total.failed + point.failed }),
    { executions: 0, succeeded: 0, failed: 0 },
  );
}
