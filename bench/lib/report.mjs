// Medians over the rounds, compared with the targets, and the table printed on stdout.
import { median, round } from './common.mjs';

const at = (rounds, side, scenario, field) => rounds.map((r) => r[side]?.scenarios?.[scenario]?.[field]);
const failuresOf = (rounds, scenario) =>
  rounds.reduce((sum, r) => {
    const count = (result) => (result ? (result.failures ?? 0) + (result.execution?.failures ?? 0) + (result.direct?.failures ?? 0) : 0);
    const sides = [r.service, r.baseline, r.bare, r.relay];
    return sum + sides.reduce((n, side) => n + count(side?.scenarios?.[scenario]), 0);
  }, 0);
const verdict = (value, target) => {
  if (!target || value === null) return null;
  return target.op === '>=' ? value >= target.limit : value <= target.limit;
};

/**
 * One row per figure: the service's and the baseline's medians, how they compare (`ratio` = service / baseline,
 * `diff` = median of the per-round differences, `value` = the service's figure itself) and the target.
 */
export function summarize(rounds, mode, firstStart, reference) {
  const rows = [];
  const before = (key) => reference?.medians?.rows?.find((row) => row.key === key)?.service ?? null;
  const add = (row) => {
    const value = row.compare === 'ratio' ? (row.service && row.baseline ? round(row.service / row.baseline, 3) : null) : row.compare === 'value' ? row.service : row.value;
    const failures = row.scenario ? failuresOf(rounds, row.scenario) : 0;
    const applies = !row.postgresqlOnly || mode === 'postgresql';
    const target = typeof row.target === 'function' ? row.target(before(row.key)) : row.target;
    rows.push({ ...row, target, value, failures, reference: before(row.key), pass: applies ? verdict(value, target) : null });
  };
  const has = (scenario) => rounds.some((r) => r.service?.scenarios?.[scenario]);
  const read = [
    ['get_action', 'GET /actions/{name}'],
    ['list_actions', 'GET /actions (11)'],
    ['token_exchange', 'POST /token/exchange'],
  ];
  for (const [scenario, label] of read) {
    if (!has(scenario)) continue;
    const pick = (side, field) => median(at(rounds, side, scenario, field));
    const rpsTarget = scenario === 'token_exchange' ? { op: '>=', limit: 0.3 } : { op: '>=', limit: 0.5 };
    add({ key: `${scenario}.rps`, scenario, label, metric: 'requests/s', service: pick('service', 'rps'), baseline: pick('baseline', 'rps'), compare: 'ratio', target: rpsTarget });
    add({ key: `${scenario}.p50`, scenario, label, metric: 'p50 ms', service: pick('service', 'p50_ms'), baseline: pick('baseline', 'p50_ms'), compare: 'ratio' });
    const p99Target = scenario === 'token_exchange' ? undefined : { op: '<=', limit: 3 };
    add({ key: `${scenario}.p99`, scenario, label, metric: 'p99 ms', service: pick('service', 'p99_ms'), baseline: pick('baseline', 'p99_ms'), compare: 'ratio', target: p99Target });
    if (!rounds.some((r) => r.bare?.scenarios?.[scenario])) continue;
    // Issue 15: against the no-database baseline, at least half its throughput and at most twice its p99.
    const bareLabel = `${label} vs no-database`;
    add({ key: `${scenario}.rps_bare`, scenario, label: bareLabel, metric: 'requests/s', service: pick('service', 'rps'), baseline: pick('bare', 'rps'), compare: 'ratio', target: { op: '>=', limit: 0.5 } });
    add({ key: `${scenario}.p50_bare`, scenario, label: bareLabel, metric: 'p50 ms', service: pick('service', 'p50_ms'), baseline: pick('bare', 'p50_ms'), compare: 'ratio' });
    add({ key: `${scenario}.p99_bare`, scenario, label: bareLabel, metric: 'p99 ms', service: pick('service', 'p99_ms'), baseline: pick('bare', 'p99_ms'), compare: 'ratio', target: { op: '<=', limit: 2 } });
  }
  if (has('executions')) {
    const label = 'executions (receiver)';
    // With a reference run (before/after): not lower than it; without, the original floor.
    const executionsTarget = (before) => ({ op: '>=', limit: before ?? 1000 });
    add({ key: 'executions.rps', scenario: 'executions', label, metric: 'executions/s', service: median(at(rounds, 'service', 'executions', 'rps')), compare: 'value', target: executionsTarget });
    add({ key: 'executions.p99', scenario: 'executions', label, metric: 'p99 ms under load', service: median(at(rounds, 'service', 'executions', 'p99_ms')), compare: 'value' });
  }
  if (has('added_latency')) {
    const runs = rounds.map((r) => r.service.scenarios.added_latency).filter(Boolean);
    for (const [p, limit] of [['p50', 0.7], ['p99', 3]]) {
      const field = `${p}_ms`;
      add({
        key: `added_latency.${p}`,
        scenario: 'added_latency',
        label: 'added latency (sequential)',
        metric: `${p} ms: execution vs direct POST`,
        service: median(runs.map((x) => x.execution[field])),
        baseline: median(runs.map((x) => x.direct[field])),
        compare: 'diff',
        value: median(runs.map((x) => x.execution[field] - x.direct[field])),
        target: { op: '<=', limit },
      });
    }
    // The floor on this machine: what the bare relay adds (one signed POST and one INSERT, no framework).
    const relayRuns = rounds.map((r) => r.relay?.scenarios?.added_latency).filter(Boolean);
    for (const p of relayRuns.length ? ['p50', 'p99'] : []) {
      const field = `${p}_ms`;
      add({
        key: `added_latency.relay_${p}`,
        scenario: 'added_latency',
        label: 'added latency: bare relay',
        metric: `${p} ms: relay execution vs direct POST`,
        service: median(relayRuns.map((x) => x.execution[field])),
        baseline: median(relayRuns.map((x) => x.direct[field])),
        compare: 'diff',
        value: median(relayRuns.map((x) => x.execution[field] - x.direct[field])),
      });
    }
  }
  if (has('write_path')) {
    const pick = (side, field) => median(at(rounds, side, 'write_path', field));
    const label = 'create + delete';
    add({ key: 'write_path.rps', scenario: 'write_path', label, metric: 'cycles/s', service: pick('service', 'rps'), baseline: pick('baseline', 'rps'), compare: 'ratio' });
    add({ key: 'write_path.p99', scenario: 'write_path', label, metric: 'cycle p99 ms', service: pick('service', 'p99_ms'), baseline: pick('baseline', 'p99_ms'), compare: 'ratio' });
  }
  const side = (field) => median(rounds.map((r) => r.service?.[field]));
  add({ key: 'memory.idle', label: 'service memory', metric: 'RSS idle MB', service: side('rss_idle_mb'), baseline: median(rounds.map((r) => r.baseline?.rss_idle_mb)), compare: 'value', target: { op: '<=', limit: 150 } });
  add({ key: 'memory.max', label: 'service memory', metric: 'RSS max under load MB', service: side('rss_max_mb'), compare: 'value', target: { op: '<=', limit: 300 } });
  add({
    key: 'startup.ready',
    label: 'start-up',
    metric: 'spawn to ready ms',
    service: side('ready_ms'),
    baseline: median(rounds.map((r) => r.baseline?.ready_ms)),
    compare: 'value',
    target: { op: '<=', limit: 2000 },
    postgresqlOnly: true,
  });
  add({ key: 'startup.first', label: 'first start', metric: 'spawn to ready ms (creates the schema)', service: firstStart?.ready_ms ?? null, compare: 'value' });
  add({ key: 'memory.first', label: 'first start', metric: 'RSS after bootstrap MB', service: firstStart?.rss_after_bootstrap_mb ?? null, compare: 'value' });
  return { rows };
}

const show = (x) => (x === null || x === undefined ? '—' : String(x));

/** Prints the table; returns true when a scenario had failed requests (the run then exits non-zero). */
export function printTable(summary, { mode, config, code }) {
  const withReference = summary.rows.some((row) => row.reference !== null && row.reference !== undefined);
  const header = ['scenario', 'metric', 'service', 'baseline', 'service/baseline', 'target', 'result', ...(withReference ? ['reference: service'] : [])];
  const lines = summary.rows.map((row) => {
    const compared = row.compare === 'ratio' ? show(row.value) : row.compare === 'diff' ? `+${show(row.value)} ms` : '';
    const target = row.target ? `${row.compare === 'value' ? '' : row.compare === 'diff' ? 'added ' : 'ratio '}${row.target.op === '>=' ? '≥' : '≤'} ${row.target.limit}${row.postgresqlOnly ? ' (PostgreSQL)' : ''}` : '';
    let result = row.pass === null ? '' : row.pass ? 'PASS' : 'MISS';
    if (row.failures) result += ` ERRORS(${row.failures})`;
    return [row.label, row.metric, show(row.service), show(row.baseline), compared, target, result.trim(), ...(withReference ? [show(row.reference)] : [])];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  console.log(
    `\nnpm run bench: ${mode}, commit ${code.commit.slice(0, 7)}${code.src_modified ? ' (src/ modified)' : ''}, ` +
      `medians of ${config.rounds} round(s), ${config.connections} connections, ${config.durationS} s per run` +
      (config.reference ? `; reference: ${config.reference}` : ''),
  );
  console.log([format(header), format(widths.map((w) => '-'.repeat(w))), ...lines.map(format)].join('\n'));
  const failed = summary.rows.some((row) => row.failures > 0);
  if (failed) console.log('\nERRORS: some requests failed (non-2xx, transport errors or failed executions); see the results file.');
  return failed;
}
