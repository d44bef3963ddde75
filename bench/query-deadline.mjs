// What a query's deadline costs the garbage collector: `node bench/query-deadline.mjs` (after `npm run build`),
// against DATABASE_URL (the local PostgreSQL's `test` database by default). For each way of giving queries a
// deadline, a child process runs the same prepared 20-row query one after another for BENCH_SECONDS (6) on a pool of 2
// connections, under V8's --trace-gc-nvp, and reports what its young collections promoted to the old generation:
//   none          no deadline at all
//   query_timeout pg's own (a timer per query, whose callback holds the query and its rows)
//   watchdog      the service's DeadlineClient (dist/src/database/query-deadline.js): one look twice a second
// MODES picks some (a comma list). Output: a table on stderr, JSON on stdout. docs/benchmarks.md, "The query deadline".
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ROOT } from './lib/common.mjs';

const URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const DEADLINE_MS = 11_000;
const MODES = (process.env.MODES ?? 'none,query_timeout,watchdog').split(',');

if (process.argv[2] === 'child') {
  const { default: pg } = await import('pg');
  const { DeadlineClient } = await import(`${ROOT}/dist/src/database/query-deadline.js`);
  const mode = process.argv[3];
  const options = { connectionString: URL, max: 2 };
  if (mode === 'query_timeout') options.query_timeout = DEADLINE_MS;
  if (mode === 'watchdog') Object.assign(options, { Client: DeadlineClient, queryDeadlineMs: DEADLINE_MS });
  const pool = new pg.Pool(options);
  const sql = `SELECT g AS id, repeat('x', 400) AS body, now() AS created_at FROM generate_series(1, 20) g`;
  const end = performance.now() + SECONDS * 1000;
  let queries = 0;
  while (performance.now() < end) {
    await pool.query({ name: 'rows', text: sql });
    queries++;
  }
  await pool.end();
  process.stdout.write(`QUERIES ${queries}\n`);
} else {
  const results = {};
  for (const mode of MODES) {
    const child = spawnSync(process.execPath, ['--trace-gc-nvp', fileURLToPath(import.meta.url), 'child', mode], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    if (child.status !== 0) throw new Error(`${mode}: ${child.stderr}`);
    const lines = child.stdout.split('\n');
    const field = (line, name) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
    const scavenges = lines.filter((line) => /\bgc=s\b/.test(line));
    const queries = Number(/QUERIES (\d+)/.exec(child.stdout)?.[1] ?? 0);
    results[mode] = {
      queries,
      scavenges: scavenges.length,
      full_collections: lines.filter((line) => /\bgc=(mc|ms)\b/.test(line)).length,
      promoted_mb: +(scavenges.reduce((sum, line) => sum + field(line, 'promoted'), 0) / 1048576).toFixed(1),
      promoted_bytes_per_query: Math.round(scavenges.reduce((sum, line) => sum + field(line, 'promoted'), 0) / Math.max(1, queries)),
      scavenge_pause_ms_total: +scavenges.reduce((sum, line) => sum + field(line, 'pause'), 0).toFixed(1),
    };
    console.error(`${mode.padEnd(14)} ${JSON.stringify(results[mode])}`);
  }
  process.stdout.write(`${JSON.stringify({ database: URL.replace(/\/\/[^@]*@/, '//'), seconds: SECONDS, deadline_ms: DEADLINE_MS, results }, null, 2)}\n`);
}
