// What a synchronous commit costs on this machine's PostgreSQL: sequential single-row INSERTs of an
// execution-sized row with synchronous_commit on, off, and on again, through a bare pg client.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/agw_bench node bench/commit-cost.mjs
//
// It creates a scratch table, drops it at the end, and talks to DATABASE_URL only (keep that on this machine).
// Why: the service writes execution records with synchronous_commit=off (docs/decisions.md, "Executions").
import pg from 'pg';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is required (a PostgreSQL server; the embedded database has no separate server)');
  process.exit(2);
}
const INSERTS = Number(process.env.COMMIT_COST_INSERTS ?? 2000);
const client = new pg.Client({ connectionString: url });
await client.connect();
const table = `commit_cost_${process.pid}`;
await client.query(`CREATE TABLE ${table} (id uuid PRIMARY KEY, attempt_log jsonb NOT NULL, created_at timestamptz NOT NULL)`);
try {
  const attemptLog = JSON.stringify([{ attempt: 1, started_at: new Date().toISOString(), duration_ms: 1, http_status: 200, error: '' }]);
  for (const mode of ['on', 'off', 'on']) {
    await client.query(`SET synchronous_commit = ${mode}`);
    const times = [];
    for (let i = 0; i < INSERTS; i++) {
      const started = performance.now();
      await client.query(`INSERT INTO ${table} VALUES (gen_random_uuid(), $1, $2)`, [attemptLog, new Date()]);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (p) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)].toFixed(3);
    console.log(`synchronous_commit=${mode.padEnd(3)}  ${INSERTS} inserts  p50 ${at(0.5)} ms  p99 ${at(0.99)} ms`);
  }
} finally {
  await client.query(`DROP TABLE ${table}`);
  await client.end();
}
