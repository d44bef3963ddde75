// Tenant-isolation mutations, re-measurable: every tenant-scoped repository method (one taking a TenantId) is
// mutated twice, one mutation at a time, in a throw-away git worktree of HEAD (the working tree is never touched):
// - compile: the tenant left out as a careless developer would (`.for(tenantId)` dropped, the `$1` parameter
//   dropped, the tenant taken as a plain string); `tsc --noEmit -p tsconfig.json` must fail;
// - behaviour: the tenant lost past the types (`acrossTenants(...)`, `tenant_id = $1 OR true`); the method's
//   medium specs and the SQL snapshot spec run, and the tests that fail are recorded.
// Usage: DATABASE_URL=postgres://... node scripts/tenant-mutations.js [--only id,id] [--kind compile|behaviour]
//        [--e2e] [--json out.json] [--keep]
// Without DATABASE_URL the specs run on the embedded database (slower). --e2e also runs a mutation's e2e file when
// no medium test but the snapshot caught it. Prints a markdown table (docs/reliability.md keeps the last one).
const { execFileSync, spawnSync } = require('node:child_process');
const { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { URL } = require('node:url');
const { Client } = require('pg');

const ROOT = join(__dirname, '..');
const SNAPSHOTS = 'test/medium/sql-snapshots.medium-spec.ts';
const ACROSS = "acrossTenants('mutant')";
const OR_TRUE = '(tenant_id = $1 OR true)';

const actions = { file: 'src/actions/actions.repository.ts', sql: 'src/actions/actions.sql.ts', specs: ['test/medium/actions.medium-spec.ts'], e2e: 'test/tenant-boundaries.e2e-spec.ts' };
const tokens = { file: 'src/auth/api-tokens.repository.ts', sql: 'src/auth/api-tokens.sql.ts', specs: ['test/medium/api-tokens.medium-spec.ts'], e2e: 'test/admin.e2e-spec.ts' };
const keys = { file: 'src/webhooks/hmac-keys.repository.ts', sql: 'src/webhooks/hmac-keys.sql.ts', specs: ['test/medium/hmac-keys.medium-spec.ts'], e2e: 'test/tenant-boundaries.e2e-spec.ts' };
const executions = { file: 'src/executions/execution-reads.repository.ts', sql: 'src/executions/execution-reads.sql.ts', specs: ['test/medium/executions.medium-spec.ts'], e2e: 'test/execution-log.e2e-spec.ts' };
const rollups = { file: 'src/executions/execution-rollups.repository.ts', sql: 'src/executions/execution-rollups.sql.ts', specs: ['test/medium/executions.medium-spec.ts'], e2e: 'test/execution-log.e2e-spec.ts' };
const replays = { file: 'src/executions/execution-replays.repository.ts', specs: ['test/medium/executions.medium-spec.ts'], e2e: 'test/execution-log.e2e-spec.ts' };
const readModel = { file: 'src/database/read-model.ts', specs: ['test/medium/actions.medium-spec.ts', 'test/medium/hmac-keys.medium-spec.ts', 'src/database/read-model.spec.ts'], e2e: 'test/tenant-boundaries.e2e-spec.ts' };
const sessions = { file: 'src/console-auth/console-sessions.repository.ts', specs: ['test/medium/console-sessions.medium-spec.ts'], e2e: 'test/console-sessions.e2e-spec.ts' };

/**
 * One row per mutation: `edits` are exact text replacements, each of which must match exactly once (a stale
 * mutation fails loudly instead of measuring nothing); `file` defaults to the module's repository.
 */
const MUTATIONS = [
  // ActionsRepository
  compile(actions, 'actions.actionsOfTenant', 'the tenant a plain string', [['actionsOfTenant(tenantId: TenantId)', 'actionsOfTenant(tenantId: string)']]),
  behaviour(actions, 'actions.actionsOfTenant', 'ACTIONS_OF_TENANT_SQL: OR true', [['WHERE tenant_id = $1 ORDER BY name', `WHERE ${OR_TRUE} ORDER BY name`]], actions.sql),
  compile(actions, 'actions.findByName', '`$1` parameter dropped', [['query(ACTION_BY_NAME_SQL, [tenantId, name])', 'query(ACTION_BY_NAME_SQL, [name])']]),
  behaviour(actions, 'actions.findByName', 'ACTION_BY_NAME_SQL: OR true', [['ActionRow>(`${SELECT_ACTION} WHERE tenant_id = $1 AND name = $2`)', `ActionRow>(\`\${SELECT_ACTION} WHERE ${OR_TRUE} AND name = $2\`)`]], actions.sql),
  compile(actions, 'actions.countByTenant', '`.for(tenantId)` dropped', [['this.actions.for(tenantId).countBy()', 'this.actions.countBy()']]),
  behaviour(actions, 'actions.countByTenant', ACROSS, [['this.actions.for(tenantId).countBy()', `this.actions.${ACROSS}.count()`]]),
  compile(actions, 'actions.insertWithinLimit', '`$1` parameter dropped', [['execute(INSERT_ACTION_SQL, [\n          tenantId,\n', 'execute(INSERT_ACTION_SQL, [\n']]),
  behaviour(actions, 'actions.insertWithinLimit', `name check ${ACROSS}`, [['await actions.existsBy({ name: action.name })', `await this.actions.${ACROSS}.existsBy({ name: action.name })`]]),
  behaviour(actions, 'actions.insertWithinLimit', `count ${ACROSS}`, [['(await actions.countBy()) >= limit', `(await this.actions.${ACROSS}.count()) >= limit`]]),
  compile(actions, 'actions.setPayloadLogging', '`$1` parameter dropped', [['[tenantId, name, on]', '[name, on]']]),
  behaviour(actions, 'actions.setPayloadLogging', 'SET_PAYLOAD_LOGGING_SQL: OR true', [['payload_logging = $3 WHERE tenant_id = $1', `payload_logging = $3 WHERE ${OR_TRUE}`]], actions.sql),
  compile(actions, 'actions.update', '`$1` parameter dropped', [['[tenantId, name, description, webhookUrl, schema, at]', '[name, description, webhookUrl, schema, at]']]),
  behaviour(actions, 'actions.update', 'UPDATE_ACTION_SQL: OR true', [['updated_at = $6 WHERE tenant_id = $1', `updated_at = $6 WHERE ${OR_TRUE}`]], actions.sql),
  compile(actions, 'actions.delete', '`.for(tenantId)` dropped', [['this.actions.for(tenantId).delete({ name })', 'this.actions.delete({ name })']]),
  behaviour(actions, 'actions.delete', ACROSS, [['(await this.actions.for(tenantId).delete({ name })) > 0', `((await this.actions.${ACROSS}.delete({ name })).affected ?? 0) > 0`]]),

  // ApiTokensRepository
  compile(tokens, 'tokens.insertWithinLimit', '`$1` parameter dropped', [['[tenantId, now, limits.dead]', '[now, limits.dead]']]),
  behaviour(tokens, 'tokens.insertWithinLimit', `usable count ${ACROSS}`, [['const usable = await tokens.countBy(', `const usable = await this.tokens.${ACROSS}.countBy(`]]),
  behaviour(tokens, 'tokens.insertWithinLimit', 'TRIM_DEAD_TOKENS_SQL: OR true', [
    ["'DELETE FROM api_tokens WHERE tenant_id = $1 AND", `'DELETE FROM api_tokens WHERE ${OR_TRUE} AND`],
    ["'SELECT id FROM api_tokens WHERE tenant_id = $1 AND", `'SELECT id FROM api_tokens WHERE ${OR_TRUE} AND`],
  ], tokens.sql),
  compile(tokens, 'tokens.listPage', '`$1` parameter dropped', [['query(TOKENS_FIRST_PAGE_SQL, [tenantId, limit])', 'query(TOKENS_FIRST_PAGE_SQL, [limit])']]),
  behaviour(tokens, 'tokens.listPage', 'TOKENS_*_PAGE_SQL: OR true', [['AS position FROM api_tokens WHERE tenant_id = $1`', `AS position FROM api_tokens WHERE ${OR_TRUE}\``]], tokens.sql),
  compile(tokens, 'tokens.findByTenantAndId', '`.for(tenantId)` dropped', [['this.tokens.for(tenantId).findOneBy({ id })', 'this.tokens.findOneBy({ id })']]),
  behaviour(tokens, 'tokens.findByTenantAndId', ACROSS, [['this.tokens.for(tenantId).findOneBy({ id })', `this.tokens.${ACROSS}.findOneBy({ id })`]]),
  compile(tokens, 'tokens.revoke', '`.for(tenantId)` dropped', [['this.tokens.for(tenantId).update(', 'this.tokens.update(']]),
  behaviour(tokens, 'tokens.revoke', ACROSS, [
    ['(await this.tokens.for(tenantId).update({ id, revokedAt: IsNull() }, { revokedAt: at })) > 0', `((await this.tokens.${ACROSS}.update({ id, revokedAt: IsNull() }, { revokedAt: at })).affected ?? 0) > 0`],
  ]),

  // HmacKeysRepository
  compile(keys, 'keys.activeKeys', 'the tenant a plain string', [['activeKeys(tenantId: TenantId)', 'activeKeys(tenantId: string)']]),
  behaviour(keys, 'keys.activeKeys', 'ACTIVE_KEYS_SQL: OR true', [['FROM hmac_keys WHERE tenant_id = $1 AND revoked_at IS NULL', `FROM hmac_keys WHERE ${OR_TRUE} AND revoked_at IS NULL`]], keys.sql),
  compile(keys, 'keys.insertWithinLimit', '`$1` parameter dropped', [['[tenantId, limits.revoked]', '[limits.revoked]']]),
  behaviour(keys, 'keys.insertWithinLimit', `active count ${ACROSS}`, [['(await keys.countBy({ revokedAt: IsNull() }))', `(await this.keys.${ACROSS}.countBy({ revokedAt: IsNull() }))`]]),
  behaviour(keys, 'keys.insertWithinLimit', 'TRIM_REVOKED_KEYS_SQL: OR true', [
    ["'DELETE FROM hmac_keys WHERE tenant_id = $1 AND", `'DELETE FROM hmac_keys WHERE ${OR_TRUE} AND`],
    ["'SELECT id FROM hmac_keys WHERE tenant_id = $1 AND", `'SELECT id FROM hmac_keys WHERE ${OR_TRUE} AND`],
  ], keys.sql),
  compile(keys, 'keys.listPage', '`$1` parameter dropped', [['query(KEYS_FIRST_PAGE_SQL, [tenantId, limit])', 'query(KEYS_FIRST_PAGE_SQL, [limit])']]),
  behaviour(keys, 'keys.listPage', 'KEYS_*_PAGE_SQL: OR true', [['AS position FROM hmac_keys WHERE tenant_id = $1`', `AS position FROM hmac_keys WHERE ${OR_TRUE}\``]], keys.sql),
  compile(keys, 'keys.listActive', '`.for(tenantId)` dropped', [['this.keys.for(tenantId).find({ where: { revokedAt', 'this.keys.find({ where: { revokedAt']]),
  behaviour(keys, 'keys.listActive', ACROSS, [['this.keys.for(tenantId).find({ where: { revokedAt', `this.keys.${ACROSS}.find({ where: { revokedAt`]]),
  compile(keys, 'keys.findByTenantAndId', '`.for(tenantId)` dropped', [['this.keys.for(tenantId).findOneBy({ id })', 'this.keys.findOneBy({ id })']]),
  behaviour(keys, 'keys.findByTenantAndId', ACROSS, [['this.keys.for(tenantId).findOneBy({ id })', `this.keys.${ACROSS}.findOneBy({ id })`]]),
  compile(keys, 'keys.revoke', '`.for(tenantId)` dropped', [['this.keys.for(tenantId).update(', 'this.keys.update(']]),
  behaviour(keys, 'keys.revoke', ACROSS, [['this.keys.for(tenantId).update(', `this.keys.${ACROSS}.update(`]]),

  // ExecutionReadsRepository and ExecutionRollupsRepository (ExecutionWritesRepository.insert takes no tenant: each
  // row of a batch carries its own, a globalStatement)
  compile(executions, 'executions.list', '`$1` parameter dropped', [['LIST_SQL.get(listKey(filters))!, [tenantId, ...parameters])', 'LIST_SQL.get(listKey(filters))!, [...parameters])']]),
  behaviour(executions, 'executions.list', 'list statement: OR true', [["const where = ['tenant_id = $1'];", `const where = ['${OR_TRUE}'];`]], executions.sql),
  compile(executions, 'executions.find', '`$1` parameter dropped', [['query(FIND_SQL, [tenantId, id, keptSince])', 'query(FIND_SQL, [id, keptSince])']]),
  behaviour(executions, 'executions.find', 'FIND_SQL: OR true', [['ExecutionRow>(`${SELECT_EXECUTION} WHERE tenant_id = $1 AND id = $2 AND created_at >= $3`)', `ExecutionRow>(\`\${SELECT_EXECUTION} WHERE ${OR_TRUE} AND id = $2 AND created_at >= $3\`)`]], executions.sql),
  behaviour(executions, 'executions.find', 'FIND_OF_ACTION_SQL: OR true', [['`${SELECT_EXECUTION} WHERE tenant_id = $1 AND id = $2 AND created_at >= $3 AND action_id = $4`', `\`\${SELECT_EXECUTION} WHERE ${OR_TRUE} AND id = $2 AND created_at >= $3 AND action_id = $4\``]], executions.sql),
  compile(executions, 'executions.findPayload', '`$1` parameter dropped', [['[tenantId, execution.id, execution.createdAt]', '[execution.id, execution.createdAt]']]),
  behaviour(executions, 'executions.findPayload', 'PAYLOAD_SQL: OR true', [['FROM execution_payloads WHERE tenant_id = $1', `FROM execution_payloads WHERE ${OR_TRUE}`]], executions.sql),
  compile(rollups, 'rollups.stats', '`$1` parameter dropped', [['read(SERIES_SQL, [tenantId, actionId, hoursFrom, daysFrom])', 'read(SERIES_SQL, [actionId, hoursFrom, daysFrom])']]),
  behaviour(rollups, 'rollups.stats', 'series statement: OR true', [['`FROM ${table} WHERE tenant_id = $1 AND action_id = $2', `\`FROM \${table} WHERE ${OR_TRUE} AND action_id = $2`]], rollups.sql),
  compile(rollups, 'rollups.statsPerAction', '`$1` parameter dropped', [['[tenantId, TENANT_TOTAL, since]', '[TENANT_TOTAL, since]']]),
  behaviour(rollups, 'rollups.statsPerAction', 'STATS_PER_ACTION_SQL: OR true', [['FROM execution_stats_hourly WHERE tenant_id = $1 AND action_id <> $2', `FROM execution_stats_hourly WHERE ${OR_TRUE} AND action_id <> $2`]], rollups.sql),

  // ExecutionReplaysRepository (insert writes $1 into tenant_id: it has no predicate to lose)
  compile(replays, 'replays.insert', '`$1` parameter dropped', [['[tenantId, id, actionId, actionName, since, until, total, at]', '[id, actionId, actionName, since, until, total, at]']]),
  compile(replays, 'replays.find', '`$1` parameter dropped', [['query(JOB_SQL, [tenantId, id])', 'query(JOB_SQL, [id])']]),
  behaviour(replays, 'replays.find', 'JOB_SQL: OR true', [['FROM execution_replays WHERE tenant_id = $1 AND id = $2`', `FROM execution_replays WHERE ${OR_TRUE} AND id = $2\``]]),
  compile(replays, 'replays.running', '`$1` parameter dropped', [['query(RUNNING_SQL, [tenantId, alive])', 'query(RUNNING_SQL, [alive])']]),
  behaviour(replays, 'replays.running', 'RUNNING_SQL: OR true', [["FROM execution_replays WHERE tenant_id = $1 AND status = 'running'", `FROM execution_replays WHERE ${OR_TRUE} AND status = 'running'`]]),
  compile(replays, 'replays.saveProgress', '`$1` parameter dropped', [['query(PROGRESS_SQL, [tenantId, id,', 'query(PROGRESS_SQL, [id,']]),
  behaviour(replays, 'replays.saveProgress', 'PROGRESS_SQL: OR true', [['finished_at = $10 WHERE tenant_id = $1', `finished_at = $10 WHERE ${OR_TRUE}`]]),
  compile(replays, 'replays.countFailed', '`$1` parameter dropped', [['query(COUNT_FAILED_SQL, [tenantId, actionId,', 'query(COUNT_FAILED_SQL, [actionId,']]),
  // COUNT_FAILED_SQL and NEXT_FAILED_SQL share FAILED_ORIGINALS: its tenant lost, each method is tried on its own.
  behaviour(replays, 'replays.countFailed', 'FAILED_ORIGINALS: OR true', [["`FROM executions e WHERE e.tenant_id = $1 AND", "`FROM executions e WHERE (e.tenant_id = $1 OR true) AND"]]),
  compile(replays, 'replays.nextFailed', '`$1` parameter dropped', [['query(NEXT_FAILED_SQL, [tenantId, actionId,', 'query(NEXT_FAILED_SQL, [actionId,']]),
  behaviour(replays, 'replays.nextFailed', 'FAILED_ORIGINALS: OR true', [["`FROM executions e WHERE e.tenant_id = $1 AND", "`FROM executions e WHERE (e.tenant_id = $1 OR true) AND"]]),

  // ConsoleSessionsRepository
  compile(sessions, 'sessions.deleteByTenant', '`.for(tenantId)` dropped', [['this.sessions.for(tenantId).delete({})', 'this.sessions.delete({})']]),
  behaviour(sessions, 'sessions.deleteByTenant', `${ACROSS}, every tenant session`, [['this.sessions.for(tenantId).delete({})', `this.sessions.${ACROSS}.delete({ kind: 'tenant' })`]]),
  compile(sessions, 'sessions.insertPortalLink', '`.for(tenantId)` dropped', [['this.links.for(tenantId).insert(link)', 'this.links.insert(link)']]),
  behaviour(sessions, 'sessions.insertPortalLink', `${ACROSS} (no check of the row's tenant)`, [['this.links.for(tenantId).insert(link)', `this.links.${ACROSS}.insert(link).then(() => undefined)`]]),

  // The read model, which every tenant's cached reads (actionsOfTenant, activeKeys) go through: one statement
  // carries the loads of many keys (tenants), and each load must get its own key's rows.
  behaviour(readModel, 'ReadModel.start', "a load answered with the first key's rows of its statement", [['rows: read.get(load.key) ?? []', 'rows: [...read.values()][0] ?? []']]),
];

function compile(module, method, what, edits, file = module.file) {
  return { kind: 'compile', method, what, file, edits };
}

function behaviour(module, method, what, edits, file = module.file) {
  return { kind: 'behaviour', method, what, file, edits, specs: module.specs, e2e: module.e2e };
}

function option(name) {
  const index = process.argv.indexOf(name);
  return index < 0 ? undefined : process.argv[index + 1];
}

const only = option('--only')?.split(',');
const kind = option('--kind');
const selected = MUTATIONS.filter((mutation) => (!only || only.includes(mutation.method)) && (!kind || mutation.kind === kind));
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
const copy = mkdtempSync(join(tmpdir(), `agw-mutants-${commit}-`));

/** The file a mutation changed and its text before, while a mutation is in place. */
let mutated;
function restore() {
  if (mutated) writeFileSync(mutated.path, mutated.text);
  mutated = undefined;
}
function cleanUp() {
  restore();
  if (process.argv.includes('--keep')) return;
  spawnSync('git', ['worktree', 'remove', '--force', copy], { cwd: ROOT });
  rmSync(copy, { recursive: true, force: true });
  spawnSync('git', ['worktree', 'prune'], { cwd: ROOT });
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

function run(command, args, timeoutMs = 900_000) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: copy, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}`, seconds: (Date.now() - started) / 1000, timedOut: result.error?.code === 'ETIMEDOUT' };
}

function typecheck() {
  const result = run('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
  const error = result.output.split('\n').find((line) => /error TS\d+/.test(line));
  return { ...result, error: error?.trim() };
}

/**
 * A fresh, empty DATABASE_URL for each jest run: the SQL snapshot spec inserts fixed ids, so it passes once per
 * database (as on CI). The database is dropped and made again through the server's `postgres` database.
 */
async function freshDatabase() {
  if (!process.env.DATABASE_URL) return;
  const url = new URL(process.env.DATABASE_URL);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/** Runs jest on `files`; the titles of the tests that failed, each prefixed with its file, and suites that failed to run. */
async function jest(files) {
  await freshDatabase();
  const out = join(copy, '.mutant-results.json');
  rmSync(out, { force: true });
  const result = run('npx', ['jest', '--maxWorkers=1', '--forceExit', '--json', `--outputFile=${out}`, ...files]);
  if (!existsSync(out)) return { ...result, failed: [`jest gave no results (exit ${result.status}${result.timedOut ? ', timed out' : ''})`] };
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const failed = report.testResults.flatMap((suite) => {
    const file = suite.name.slice(copy.length + 1).replace(/^test\//, '');
    const tests = suite.assertionResults.filter((test) => test.status === 'failed').map((test) => `${file}: ${test.title}`);
    return tests.length === 0 && suite.status === 'failed' ? [`${file}: the suite failed to run`] : tests;
  });
  return { ...result, failed, passed: report.numPassedTests };
}

/** The text of `mutation.file` with every edit of `mutation` made; throws when an edit does not match exactly once. */
function mutatedText(mutation, text) {
  let next = text;
  for (const [from, to] of mutation.edits) {
    const count = next.split(from).length - 1;
    if (count !== 1) throw new Error(`${mutation.method} (${mutation.what}): ${JSON.stringify(from)} occurs ${count} times in ${mutation.file}: the mutation is stale`);
    next = next.replace(from, () => to);
  }
  return next;
}

function apply(mutation) {
  const path = join(copy, mutation.file);
  const text = readFileSync(path, 'utf8');
  const next = mutatedText(mutation, text);
  mutated = { path, text };
  writeFileSync(path, next);
}

async function check(mutation) {
  if (mutation.kind === 'compile') {
    const result = typecheck();
    return { ...mutation, caught: result.status !== 0, outcome: result.status !== 0 ? `tsc fails: ${result.error ?? '(no TS error line)'}` : 'tsc passes', seconds: result.seconds };
  }
  const medium = await jest([...mutation.specs, SNAPSHOTS]);
  let failed = medium.failed;
  let seconds = medium.seconds;
  const behaviourCaught = () => failed.some((title) => !title.startsWith('medium/sql-snapshots'));
  if (!behaviourCaught() && process.argv.includes('--e2e') && mutation.e2e) {
    const e2e = await jest([mutation.e2e]);
    failed = [...failed, ...e2e.failed];
    seconds += e2e.seconds;
  }
  return { ...mutation, caught: behaviourCaught(), failed, seconds };
}

/** Applies `mutation` to the copy, checks it, and puts the file back, whatever happened. */
async function measure(mutation) {
  apply(mutation);
  let result;
  try {
    result = await check(mutation);
  } finally {
    restore();
  }
  if (spawnSync('git', ['diff', '--quiet', '--', 'src'], { cwd: copy }).status !== 0) throw new Error(`the copy's src/ differs from HEAD after ${mutation.method}`);
  return result;
}

/** A markdown row: what was mutated and what caught it (the tests' titles when few, else how many per file). */
function row(result) {
  const method = `\`${result.method}\``;
  // The error's file, code and message, not its line and column: those move with every edit of the file.
  if (result.kind === 'compile') return `| ${method} | compile: ${result.what} | ${result.outcome.replace(/\(\d+,\d+\)/, '').replace(/\|/g, '\\|')} |`;
  const behavioural = result.failed.filter((title) => !title.startsWith('medium/sql-snapshots'));
  const snapshot = result.failed.length > behavioural.length ? 'and the SQL snapshot' : 'not the SQL snapshot';
  const perFile = new Map();
  for (const title of behavioural) {
    const file = title.slice(0, title.indexOf(': '));
    perFile.set(file, (perFile.get(file) ?? 0) + 1);
  }
  const tests = behavioural.length <= 2 ? behavioural.join('; ') : [...perFile].map(([file, count]) => `${count} of ${file}`).join(', ');
  const caught = behavioural.length === 0 ? `**survivor**: ${result.failed.length > 0 ? 'only the SQL snapshot fails' : 'no test fails, not even the SQL snapshot'}` : `${behavioural.length} ${snapshot}: ${tests}`;
  return `| ${method} | behaviour: ${result.what} | ${caught.replace(/\|/g, '\\|')} |`;
}

async function main() {
  // Every mutation must still match the code before anything runs: a stale one is fixed, not measured as nothing.
  const stale = selected.flatMap((mutation) => {
    try {
      mutatedText(mutation, execFileSync('git', ['show', `HEAD:${mutation.file}`], { cwd: ROOT, encoding: 'utf8' }));
      return [];
    } catch (error) {
      return [error.message];
    }
  });
  if (stale.length > 0) throw new Error(stale.join('\n'));
  execFileSync('git', ['worktree', 'add', '--detach', '--quiet', copy, 'HEAD'], { cwd: ROOT });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  console.error(`mutating ${commit} in ${copy}: ${selected.length} mutations`);
  const baseline = typecheck();
  if (baseline.status !== 0) throw new Error(`tsc fails before any mutation: ${baseline.error}`);
  const behaviourSpecs = [...new Set(selected.flatMap((mutation) => mutation.specs ?? []))];
  if (behaviourSpecs.length > 0) {
    const before = await jest([...behaviourSpecs, SNAPSHOTS]);
    if (before.failed.length > 0) throw new Error(`tests fail before any mutation: ${before.failed.join('; ')}`);
    console.error(`baseline: tsc ${baseline.seconds.toFixed(0)} s, ${before.passed} medium tests pass in ${before.seconds.toFixed(0)} s`);
  }
  const started = Date.now();
  const results = [];
  for (const mutation of selected) {
    const result = await measure(mutation);
    results.push(result);
    console.error(`${result.caught ? 'caught  ' : 'SURVIVED'} ${result.method} (${result.kind}: ${result.what}) ${result.seconds.toFixed(0)} s`);
  }
  const json = option('--json');
  if (json) writeFileSync(json, `${JSON.stringify({ commit, date: new Date().toISOString(), database: process.env.DATABASE_URL ? 'postgresql' : 'embedded', results }, null, 2)}\n`);
  console.log(['| method | mutation | caught by |', '|---|---|---|', ...results.map(row)].join('\n'));
  const survivors = results.filter((result) => !result.caught);
  console.log(`\n${results.length} mutations at ${commit}, ${((Date.now() - started) / 60000).toFixed(1)} min; survivors: ${survivors.map((result) => `${result.method} (${result.what})`).join(', ') || 'none'}`);
  process.exitCode = survivors.length === 0 ? 0 : 1;
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 2;
  })
  .finally(cleanUp);
