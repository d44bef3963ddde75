// Before/after: `node bench/compare.mjs <before.json> <after.json>` prints, as a Markdown table, the figures
// issue 15 sets targets for, from two results files of `npm run bench` in one database mode (taken in one
// session on one quiet machine). The no-database baseline is the machine's, not the code's: both columns are
// compared with the one the `after` run measured (the `before` run may predate it).
import { readFileSync } from 'node:fs';

const [beforeFile, afterFile] = process.argv.slice(2);
if (!beforeFile || !afterFile) {
  console.error('usage: node bench/compare.mjs <before results.json> <after results.json>');
  process.exit(2);
}
const load = (file) => JSON.parse(readFileSync(file, 'utf8'));
const [before, after] = [load(beforeFile), load(afterFile)];
if (before.mode !== after.mode) throw new Error(`different database modes: ${before.mode} and ${after.mode}`);
const row = (results, key) => results.medians.rows.find((r) => r.key === key);
const value = (results, key, field = 'service') => row(results, key)?.[field] ?? null;
const show = (x, digits = 2) => (x === null || x === undefined ? '—' : Number.isInteger(x) ? String(x) : x.toFixed(digits));
const ratio = (a, b) => (a !== null && b ? a / b : null);

const lines = [];
const add = (label, beforeValue, afterValue, target) => lines.push(`| ${label} | ${show(beforeValue)} | ${show(afterValue)} | ${target} |`);
for (const [scenario, label] of [['get_action', '`GET /actions/{name}`'], ['list_actions', '`GET /actions` (11)']]) {
  const bareRps = value(after, `${scenario}.rps_bare`, 'baseline');
  const bareP99 = value(after, `${scenario}.p99_bare`, 'baseline');
  add(`${label} requests/s`, value(before, `${scenario}.rps`), value(after, `${scenario}.rps`), '');
  add(`${label} p99 ms`, value(before, `${scenario}.p99`), value(after, `${scenario}.p99`), '');
  add(`no-database baseline: requests/s / p99 ms`, null, null, `${show(bareRps)} / ${show(bareP99)}`);
  add(`${label} requests/s ÷ no-database baseline`, ratio(value(before, `${scenario}.rps`), bareRps), ratio(value(after, `${scenario}.rps`), bareRps), '≥ 0.5');
  add(`${label} p99 ÷ no-database baseline`, ratio(value(before, `${scenario}.p99`), bareP99), ratio(value(after, `${scenario}.p99`), bareP99), '≤ 2');
  add(`${label} requests/s ÷ same-query baseline`, value(before, `${scenario}.rps`, 'value'), value(after, `${scenario}.rps`, 'value'), '≥ 0.5');
}
add('executions/s (16 connections)', value(before, 'executions.rps'), value(after, 'executions.rps'), '≥ before');
add('execution added latency p50 ms', value(before, 'added_latency.p50', 'value'), value(after, 'added_latency.p50', 'value'), '≤ 0.7');
add('execution added latency p99 ms', value(before, 'added_latency.p99', 'value'), value(after, 'added_latency.p99', 'value'), '≤ 3');
add('RSS idle / max under load MB', null, null, `before ${show(value(before, 'memory.idle'))} / ${show(value(before, 'memory.max'))}, after ${show(value(after, 'memory.idle'))} / ${show(value(after, 'memory.max'))}`);

const describe = (results, file) => `${file} (${results.code.commit.slice(0, 7)}${results.code.src_modified ? ', src/ modified' : ''}, ${results.date}, ${results.config.rounds} rounds)`;
console.log(`${after.mode}: before ${describe(before, beforeFile)}, after ${describe(after, afterFile)}\n`);
console.log('| | before | after | target |\n|---|---|---|---|');
console.log(lines.join('\n'));
