import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from './support/http';
import { runCli, ServiceProcess } from './support/process';
import { Receiver } from './support/receiver';

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

/** The built service's log of a whole session: JSON lines with request and tenant ids, and no secret in it. */
describe('logs', () => {
  it('are JSON lines carrying the request id and tenant id, with no token or key anywhere', async () => {
    const receiver = await Receiver.start();
    const dataDir = mkdtempSync(join(tmpdir(), 'agw-logs-'));
    const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' };
    const service = ServiceProcess.start(env);
    const secrets: string[] = [];
    let tenantId: string | undefined;
    try {
      const url = await service.ready(dataDir, 90_000); // a fresh embedded database is slow to create on a busy machine
      const created = JSON.parse(runCli(['bootstrap', '--tenant', 'logged'], env).stdout);
      tenantId = created.tenant.id;
      secrets.push(created.api_token.token, created.hmac_key.key, JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).ADMIN_API_KEY);
      const exchanged = await call(url, 'POST', '/api/v1/gateway/token/exchange', { body: { api_token: created.api_token.token } });
      const jwt = exchanged.body.jwt_token as string;
      secrets.push(jwt);
      await call(url, 'POST', '/api/v1/gateway/token/exchange', { body: { api_token: `${created.api_token.token}x` } });
      await call(url, 'POST', '/api/v1/gateway/actions', {
        token: jwt,
        headers: { 'x-request-id': 'log-trace-1', traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
        body: { name: 'logged', description: 'd', webhook_url: receiver.url(), json_schema: { type: 'object' } },
      });
      await call(url, 'POST', '/api/v1/gateway/actions/logged/execute', { token: jwt, body: { parameters: { secret: 'not logged' } } });
      await call(url, 'GET', '/api/v1/gateway/actions', { token: `${jwt}tampered` });
      await call(url, 'GET', '/api/v1/admin/tenants', { token: `${secrets[2]}wrong` });
    } finally {
      await service.stop();
      await receiver.stop();
    }

    const output = service.output.join('');
    for (const secret of secrets) expect(output).not.toContain(secret);
    expect(output).not.toContain(secrets[0].slice(4)); // not even the token without its prefix
    const lines = output.trim().split('\n').map((line) => JSON.parse(line));
    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(completed.length).toBeGreaterThanOrEqual(6);
    expect(completed.every((line) => typeof line.reqId === 'string')).toBe(true);
    const create = completed.find((line) => line.reqId === 'log-trace-1');
    expect(create).toMatchObject({ res: { statusCode: 201 }, tenantId });
    // The start says whether spans are recorded, and where they go (tracingSummary, src/tracing/tracing.spec.ts).
    expect(lines.filter((line) => line.context === 'Tracing').map((line) => [line.level, line.msg])).toEqual([
      [30, 'tracing off: no exporter configured (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_TRACES_EXPORTER); receivers still get a traceparent'],
    ]);
    // Every line of a request names its trace: the caller's when it sent a traceparent (tracing off here: the
    // span id is the caller's, which receivers get as their parent), a new one otherwise.
    expect(create).toMatchObject({ trace_id: CALLER_TRACE, span_id: CALLER_SPAN });
    const requestLines = lines.filter((line) => typeof line.reqId === 'string');
    expect(requestLines.every((line) => /^[0-9a-f]{32}$/.test(line.trace_id) && /^[0-9a-f]{16}$/.test(line.span_id))).toBe(true);
    expect(lines.filter((line) => line.reqId === 'log-trace-1').map((line) => line.trace_id)).toEqual(lines.filter((line) => line.reqId === 'log-trace-1').map(() => CALLER_TRACE));
  });
});
