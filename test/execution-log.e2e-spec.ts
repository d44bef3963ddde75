import { randomUUID } from 'node:crypto';
import { ServerResponse } from 'node:http';
import { DataSource } from 'typeorm';
import { PageCursors } from '../src/common/page-cursors';
import { ExecutionLogMaintenance } from '../src/executions/execution-log-maintenance';
import { ExecutionLogMaintenanceRepository } from '../src/executions/execution-log-maintenance.repository';
import { LogPartitionsRepository } from '../src/executions/log-partitions.repository';
import { BulkReplays } from '../src/executions/bulk-replays';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { operatorSession, redeemPortalLink, withSession } from './support/console-session';
import { call } from './support/http';
import { Behaviour, executions, ok, Receiver, ReceivedCall } from './support/receiver';
import { eventually } from './support/eventually';
import { seedExecutions } from './support/log-seed';
import { runMaintenance } from './support/maintenance';
import { appWithReceiver, startTestApp } from './support/test-app';

const answer =
  (status: number, body: string | Buffer, headers: Record<string, string | string[]> = {}): Behaviour =>
  (_, response: ServerResponse) =>
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);

const DAY_MS = 86_400_000;

/** The delivery log (issue 29): payloads, paging and filters, lookups, replay, statistics, retention, purging. */
describe('the delivery log', () => {
  // A call held by the receiver (a bulk replay's, until its tenant is disabled) must outlast the requests made
  // meanwhile on a busy machine; no test here waits for a timeout.
  const suite = appWithReceiver({ env: { WEBHOOK_TIMEOUT_MS: '20000', WEBHOOK_MAX_RETRIES: '1', EXECUTION_PAYLOAD_RETENTION_DAYS: '7' } });
  let tenant: TestTenant;
  let other: TestTenant;

  beforeEach(async () => {
    suite.receiver.behaviour = ok;
    tenant = await createTenant(suite.testApp);
    other = await createTenant(suite.testApp);
  });

  async function actionAnswering(behaviour: Behaviour, owner = tenant, overrides: Record<string, unknown> = {}): Promise<{ name: string; id: string }> {
    suite.receiver.behaviour = ok;
    const created = await gateway(suite.testApp, 'POST', '/actions', { token: owner.jwt, body: actionBody(suite.receiver.url(), overrides) });
    expect(created.status).toBe(201);
    suite.receiver.behaviour = executions(behaviour);
    return { name: created.body.action.name, id: created.body.action.id };
  }

  const execute = (name: string, parameters: Record<string, unknown> = { city: 'Oslo' }, owner = tenant) =>
    gateway(suite.testApp, 'POST', `/actions/${name}/execute`, { token: owner.jwt, body: { parameters } });
  const get = (path: string, owner = tenant) => gateway(suite.testApp, 'GET', path, { token: owner.jwt });

  /** Rows written straight into the log: `count` executions of the action, one a second back from `newest`. */
  const seed = (action: { id: string; name: string }, count: number, newest: Date, status = 'succeeded', owner = tenant) =>
    seedExecutions(suite.testApp, owner.tenantId, action, count, newest, status);

  /** Every page of a list, following next_cursor to the end. */
  async function allPages(path: string, owner = tenant, between?: () => Promise<void>): Promise<Array<{ id: string; created_at: string }>> {
    const listed: Array<{ id: string; created_at: string }> = [];
    let cursor: string | null = null;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const page = await get(`${path}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ''}`, owner);
      expect(page.status).toBe(200);
      expect(Object.keys(page.body).sort()).toEqual(['executions', 'next_cursor']);
      listed.push(...page.body.executions);
      cursor = page.body.next_cursor;
      await between?.();
    } while (cursor);
    return listed;
  }

  describe('what was sent and what came back', () => {
    it('keeps the exact bytes signed and sent, the headers, and each attempt\'s answer; the lookup shows them', async () => {
      let attempt = 0;
      const action = await actionAnswering((call, response) => {
        attempt += 1;
        if (attempt === 1) answer(503, 'busy, try again', { 'retry-after': '0', 'x-trace': 'first' })(call, response);
        else answer(200, JSON.stringify({ result: 'Sunny', error: '' }), { 'set-cookie': 'session=secret' })(call, response);
      });
      const mark = suite.receiver.calls.length;
      const execution = (await execute(action.name, { city: 'Zürich', n: 12345 })).body.execution;
      const calls: ReceivedCall[] = suite.receiver.calls.slice(mark);
      expect(calls).toHaveLength(2);

      const detail = await get(`/actions/${action.name}/executions/${execution.id}`);
      expect(detail.status).toBe(200);
      expect(detail.headers.get('cache-control')).toBe('no-store');
      const { payload, ...summary } = detail.body.execution;
      expect(summary).toMatchObject({ id: execution.id, status: 'succeeded', attempts: 2, replay_of: null });
      expect(summary.attempt_log).toHaveLength(2);
      expect(payload.status).toBe('kept');
      expect(payload.request).toEqual({
        body: calls[1].body,
        body_encoding: 'utf8',
        body_bytes: Buffer.byteLength(calls[1].body),
        body_truncated: false,
        headers: expect.objectContaining({ 'content-type': 'application/json', 'webhook-id': execution.id, 'webhook-signature': calls[1].headers['webhook-signature'] }),
      });
      expect(payload.attempts).toEqual([
        {
          attempt: 1,
          request_headers: expect.objectContaining({ 'webhook-timestamp': calls[0].headers['webhook-timestamp'] }),
          response: expect.objectContaining({ status: 503, body: 'busy, try again', body_truncated: false, headers: expect.objectContaining({ 'x-trace': 'first' }) }),
        },
        {
          attempt: 2,
          request_headers: expect.any(Object),
          response: expect.objectContaining({ status: 200, body: '{"result":"Sunny","error":""}', headers: expect.objectContaining({ 'set-cookie': '[redacted]' }) }),
        },
      ]);
      // The same through the management API.
      const viaAdmin = await admin(suite.testApp, 'GET', `/tenants/${tenant.tenantId}/actions/${action.name}/executions/${execution.id}`);
      expect(viaAdmin.body).toEqual(detail.body);
      // Stored once: the request's headers are the last attempt's, not written a second time.
      const [stored] = await suite.dataSource.query('SELECT request::jsonb AS request, attempts::jsonb AS attempts FROM execution_payloads WHERE execution_id = $1', [execution.id]);
      expect(stored.request).not.toHaveProperty('headers');
      expect(stored.attempts[1].request_headers).toEqual(payload.request.headers);
    });

    it('stores no credential a receiver echoes: every answer header whose name is credential-like is masked', async () => {
      const echoed = {
        'x-auth-token': 'a1',
        'X-Amz-Security-Token': 'a2',
        'api-key': 'a3',
        'x-client-secret': 'a4',
        'x-session-id': 'a5',
        'x-hub-signature-256': 'a6',
        'x-user-password': 'a7',
        'set-cookie': 'a8',
        'x-request-id': 'kept',
        etag: '"kept"',
      };
      const action = await actionAnswering(answer(200, '{"result":"ok"}', echoed));
      const execution = (await execute(action.name)).body.execution;
      const { payload } = (await get(`/actions/${action.name}/executions/${execution.id}`)).body.execution;
      const masked = Object.fromEntries(Object.keys(echoed).map((name) => [name.toLowerCase(), '[redacted]']));
      expect(payload.attempts[0].response.headers).toEqual(expect.objectContaining({ ...masked, 'x-request-id': 'kept', etag: '"kept"' }));
      // The gateway's own request headers keep their signature readable.
      expect(payload.request.headers['webhook-signature']).toMatch(/^v1,/);
      // Nothing of the values is in the stored row.
      const [stored] = await suite.dataSource.query('SELECT attempts::text AS attempts FROM execution_payloads WHERE execution_id = $1', [execution.id]);
      for (const value of ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8']) expect(stored.attempts).not.toContain(`"${value}"`);
    });

    it('masks the words EXECUTION_PAYLOAD_MASKED_HEADERS lists instead, and the standard credential headers always', async () => {
      const configured = await startTestApp({ env: { EXECUTION_PAYLOAD_MASKED_HEADERS: 'Tenant-Ref, token' } });
      try {
        const owner = await createTenant(configured);
        suite.receiver.behaviour = ok;
        const created = await gateway(configured, 'POST', '/actions', { token: owner.jwt, body: actionBody(suite.receiver.url()) });
        suite.receiver.behaviour = executions(answer(200, '{"result":"ok"}', { 'x-tenant-ref': 'r', 'x-auth-token': 't', 'x-session-id': 's', 'set-cookie': 'c' }));
        const name = created.body.action.name;
        const execution = (await gateway(configured, 'POST', `/actions/${name}/execute`, { token: owner.jwt, body: { parameters: { city: 'x' } } })).body.execution;
        const detail = await gateway(configured, 'GET', `/actions/${name}/executions/${execution.id}`, { token: owner.jwt });
        expect(detail.body.execution.payload.attempts[0].response.headers).toEqual(
          expect.objectContaining({ 'x-tenant-ref': '[redacted]', 'x-auth-token': '[redacted]', 'x-session-id': 's', 'set-cookie': '[redacted]' }),
        );
      } finally {
        await configured.close();
      }
    });

    it('lists every header sent, the trace context (traceparent, tracestate) included, as the receiver got them', async () => {
      const action = await actionAnswering(answer(200, '{"result":"ok"}'));
      const mark = suite.receiver.calls.length;
      const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      const execution = (
        await gateway(suite.testApp, 'POST', `/actions/${action.name}/execute`, { token: tenant.jwt, body: { parameters: { city: 'Oslo' } }, headers: { traceparent, tracestate: 'platform=abc' } })
      ).body.execution;
      const [received] = suite.receiver.calls.slice(mark);
      const { payload } = (await get(`/actions/${action.name}/executions/${execution.id}`)).body.execution;
      // What the connection itself carries (undici's framing) is the transport's, not the gateway's headers.
      const { host, connection, 'content-length': length, ...got } = received.headers as Record<string, string>;
      expect([host, connection, length]).toEqual([expect.any(String), 'keep-alive', String(Buffer.byteLength(received.body))]);
      expect(payload.request.headers).toEqual(got);
      expect(payload.attempts[0].request_headers).toEqual(got);
      expect(got).toEqual(expect.objectContaining({ traceparent: expect.stringMatching(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-0[01]$/), tracestate: 'platform=abc' }));
    });

    it('shows a payload stored with its own request headers (before they were stored once) as it was stored', async () => {
      const action = await actionAnswering(answer(200, '{"result":"ok"}'));
      const execution = (await execute(action.name)).body.execution;
      const own = { 'content-type': 'application/json', 'x-stored': 'before' };
      await suite.dataSource.query(`UPDATE execution_payloads SET request = json_build_object('body', '{}', 'body_encoding', 'utf8', 'body_bytes', 2, 'body_truncated', false, 'headers', $2::json) WHERE execution_id = $1`, [
        execution.id,
        JSON.stringify(own),
      ]);
      const { payload } = (await get(`/actions/${action.name}/executions/${execution.id}`)).body.execution;
      expect(payload.request).toEqual({ body: '{}', body_encoding: 'utf8', body_bytes: 2, body_truncated: false, headers: own });
    });

    it('bounds a huge answer (16 KiB kept of 900 KB), a non-UTF-8 one (base64) and a flood of headers, each cut marked', async () => {
      const huge = JSON.stringify({ result: 'r'.repeat(900_000), error: '' });
      // Node reads at most 16 KB of headers: 3 long values (cut at 1 KiB) and 70 short ones (past the 50 kept).
      const manyHeaders = Object.fromEntries(Array.from({ length: 73 }, (_, index) => [`x-h${index}`, 'v'.repeat(index < 3 ? 1_500 : 100)]));
      const action = await actionAnswering(answer(200, huge, manyHeaders));
      const execution = (await execute(action.name)).body.execution;
      const { payload } = (await get(`/actions/${action.name}/executions/${execution.id}`)).body.execution;
      const response = payload.attempts[0].response;
      expect(response).toMatchObject({ status: 200, body_bytes: huge.length, body_truncated: true, body_encoding: 'utf8' });
      expect(response.body).toBe(huge.slice(0, 16_384));
      expect(Object.keys(response.headers).length).toBeLessThanOrEqual(51);
      expect(response.headers['…']).toMatch(/more headers not kept/);
      expect(Object.values(response.headers).every((value) => Buffer.byteLength(value as string) <= 1_024 + 20)).toBe(true);

      suite.receiver.behaviour = executions(answer(500, Buffer.from([0xff, 0xfe, 0x00, 0x41])));
      const binary = (await execute(action.name)).body.execution;
      const attempts = (await get(`/actions/${action.name}/executions/${binary.id}`)).body.execution.payload.attempts;
      expect(attempts[0].response).toMatchObject({ status: 500, body: Buffer.from([0xff, 0xfe, 0x00, 0x41]).toString('base64'), body_encoding: 'base64', body_bytes: 4 });
    });

    it('keeps parameters over 64 KiB cut (marked), and refuses to replay them', async () => {
      const action = await actionAnswering(answer(200, '{"result":"ok"}'), tenant, { json_schema: { type: 'object' } });
      const execution = (await execute(action.name, { text: 'x'.repeat(100_000) })).body.execution;
      const { request } = (await get(`/actions/${action.name}/executions/${execution.id}`)).body.execution.payload;
      expect(request).toMatchObject({ body_truncated: true, body_bytes: expect.any(Number) });
      expect(request.body).toHaveLength(65_536);
      const replay = await gateway(suite.testApp, 'POST', `/actions/${action.name}/executions/${execution.id}/replay`, { token: tenant.jwt });
      expect([replay.status, replay.body]).toEqual([409, { error: 'execution cannot be replayed: its parameters were larger than the log keeps whole' }]);
    });

    it('keeps no payload while payload logging is off (a log setting, not a field of the Action), and cannot replay it', async () => {
      const action = await actionAnswering(answer(200, '{"result":"ok"}'));
      expect((await get(`/actions/${action.name}/log-settings`)).body).toEqual({ log_settings: { payload_logging: true } });
      const bad = await gateway(suite.testApp, 'PUT', `/actions/${action.name}/log-settings`, { token: tenant.jwt, body: { payload_logging: 'no' } });
      expect([bad.status, bad.body]).toEqual([400, { error: 'Invalid request', details: 'payload_logging: must be a boolean' }]);
      const off = await gateway(suite.testApp, 'PUT', `/actions/${action.name}/log-settings`, { token: tenant.jwt, body: { payload_logging: false } });
      expect([off.status, off.body]).toEqual([200, { log_settings: { payload_logging: false } }]);
      // The Action keeps exactly the spec's fields, and its updated_at.
      const shown = (await get(`/actions/${action.name}`)).body.action;
      expect(Object.keys(shown).sort()).toEqual(['created_at', 'description', 'id', 'json_schema', 'name', 'tenant_id', 'updated_at', 'webhook_url']);
      expect(shown.updated_at).toBe(shown.created_at);

      const execution = (await execute(action.name, { city: 'private' })).body.execution;
      const detail = (await get(`/actions/${action.name}/executions/${execution.id}`)).body.execution;
      expect(detail.payload).toEqual({ status: 'not_logged', request: null, attempts: null });
      expect(await suite.dataSource.query('SELECT count(*)::int AS n FROM execution_payloads WHERE execution_id = $1', [execution.id])).toEqual([{ n: 0 }]);
      const replay = await gateway(suite.testApp, 'POST', `/actions/${action.name}/executions/${execution.id}/replay`, { token: tenant.jwt });
      expect([replay.status, replay.body]).toEqual([409, { error: 'execution cannot be replayed: its payload was not logged (payload logging was off for the action)' }]);
      // The management API sets it too.
      const on = await admin(suite.testApp, 'PUT', `/tenants/${tenant.tenantId}/actions/${action.name}/log-settings`, { payload_logging: true });
      expect(on.body).toEqual({ log_settings: { payload_logging: true } });
      const again = (await execute(action.name)).body.execution;
      expect((await get(`/actions/${action.name}/executions/${again.id}`)).body.execution.payload.status).toBe('kept');
    });

    it('answers 404 for another tenant\'s execution id, a malformed id, and another tenant\'s action', async () => {
      const mine = await actionAnswering(answer(200, '{"result":"ok"}'));
      const theirs = await actionAnswering(answer(200, '{"result":"theirs"}'), other, { name: mine.name });
      const theirExecution = (await execute(theirs.name, { city: 'x' }, other)).body.execution;
      for (const path of [`/actions/${mine.name}/executions/${theirExecution.id}`, `/actions/${mine.name}/executions/not-a-uuid`]) {
        const response = await get(path);
        expect([response.status, response.body]).toEqual([404, { error: 'Execution not found' }]);
      }
      const replay = await gateway(suite.testApp, 'POST', `/actions/${mine.name}/executions/${theirExecution.id}/replay`, { token: tenant.jwt });
      expect([replay.status, replay.body]).toEqual([404, { error: 'Execution not found' }]);
    });
  });

  describe('finding any execution', () => {
    it('pages to the oldest through a log that grows while it is paged, neither skipping nor repeating, on both lists', async () => {
      const action = await actionAnswering(answer(200, '{"result":"new"}'));
      // 45 executions, with ties: three share each second, so the id breaks them.
      const newest = new Date(Date.now() - 60_000);
      for (let copy = 0; copy < 3; copy++) await seed(action, 15, newest);
      const before = new Set((await suite.dataSource.query('SELECT id FROM executions WHERE tenant_id = $1', [tenant.tenantId])).map((row: { id: string }) => row.id));
      expect(before.size).toBe(45);

      for (const path of [`/actions/${action.name}/executions?limit=7`, '/executions?limit=7']) {
        const listed = await allPages(path, tenant, async () => {
          expect((await execute(action.name)).status).toBe(200);
        });
        const ids = listed.map((execution) => execution.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.filter((id) => before.has(id))).toHaveLength(45);
        // Newest first, ties by id.
        const order = listed.map((execution) => `${execution.created_at}/${execution.id}`);
        expect([...order].sort().reverse()).toEqual(order);
      }
    });

    it('filters by status, action, since (inclusive) and until (exclusive), at their edges', async () => {
      const first = await actionAnswering(answer(200, '{"result":"ok"}'));
      const second = await actionAnswering(answer(200, '{"result":"ok"}'));
      const t0 = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000);
      await seed(first, 10, t0, 'succeeded');
      await seed(second, 10, new Date(t0.getTime() - 500), 'failed');
      const ids = async (query: string) => (await allPages(`/executions?${query}`)).map((execution) => execution.created_at);

      expect(await ids(`since=${t0.toISOString()}`)).toEqual([t0.toISOString()]);
      expect(await ids(`until=${t0.toISOString()}&status=succeeded`)).toHaveLength(9);
      const nine = new Date(t0.getTime() - 9_000).toISOString();
      expect(await ids(`since=${encodeURIComponent(nine)}&until=${encodeURIComponent(t0.toISOString())}&action=${first.name}`)).toHaveLength(9);
      expect(await ids(`status=failed`)).toHaveLength(10);
      expect(await ids(`status=failed&action=${first.name}`)).toEqual([]);
      // An offset other than Z means the same instant.
      const plusOne = new Date(t0.getTime() + 3_600_000).toISOString().replace('Z', '+01:00');
      expect(await ids(`since=${encodeURIComponent(plusOne.replace(/\.\d+/, ''))}`)).toHaveLength(1);
      expect((await allPages(`/actions/${second.name}/executions?status=failed&limit=3`)).length).toBe(10);
    });

    it('refuses bad filters with 400 Invalid request naming each, and a cursor that is not this tenant\'s', async () => {
      const action = await actionAnswering(answer(200, '{"result":"ok"}'));
      await seed(action, 3, new Date(Date.now() - 10_000));
      const cases: Array<[string, string]> = [
        ['/executions?status=done', 'status: must be "succeeded", "failed", "pending" or "running"'],
        ['/executions?since=yesterday', 'since: must be an RFC 3339 date-time, like 2026-11-27T10:00:00Z'],
        ['/executions?until=2026-02-30T00:00:00Z', 'until: must be an RFC 3339 date-time, like 2026-11-27T10:00:00Z'],
        ['/executions?since=2026-11-27T10:00:00', 'since: must be an RFC 3339 date-time, like 2026-11-27T10:00:00Z'],
        ['/executions?since=2026-11-27T10:00:00Z&until=2026-11-27T10:00:00Z', 'until: must be later than since'],
        ['/executions?status=done&limit=0', 'limit: must be a positive integer; status: must be "succeeded", "failed", "pending" or "running"'],
        ['/executions?status=failed&status=succeeded', 'status: must be given once'],
        ['/executions?action=Not-A-Name', 'action: must be an action name'],
        ['/executions?cursor=abc', 'cursor: is not a cursor this list gave'],
        // An offset's + sent unencoded arrives as a space.
        ['/executions?since=2026-11-28T21:34:30+02:00', "since: its offset's + arrived as a space (a + in a query string means a space): send it as %2B, since=2026-11-28T21:34:30%2B02:00"],
        ['/executions?until=2026-11-28T21:34:30.5+02:00', "until: its offset's + arrived as a space (a + in a query string means a space): send it as %2B, until=2026-11-28T21:34:30.5%2B02:00"],
        [`/actions/${action.name}/executions?cursor=`, 'cursor: must not be empty'],
      ];
      for (const [path, details] of cases) {
        const response = await get(path);
        expect([path, response.status, response.body]).toEqual([path, 400, { error: 'Invalid request', details }]);
      }
      const unknown = await get('/executions?action=no_such_action');
      expect([unknown.status, unknown.body]).toEqual([404, { error: 'Action not found' }]);

      // A cursor given to this tenant reads for it only; edited, it reads for nobody.
      const page = (await get('/executions?limit=1')).body;
      expect(page.next_cursor).toEqual(expect.any(String));
      const theirs = await get(`/executions?cursor=${encodeURIComponent(page.next_cursor)}`, other);
      expect([theirs.status, theirs.body]).toEqual([400, { error: 'Invalid request', details: 'cursor: is not a cursor this list gave' }]);
      const edited = page.next_cursor.slice(0, -2) + (page.next_cursor.endsWith('AA') ? 'BB' : 'AA');
      expect((await get(`/executions?cursor=${encodeURIComponent(edited)}`)).status).toBe(400);
      // The tenant-wide list of another tenant shows none of this one's.
      expect((await get('/executions', other)).body).toEqual({ executions: [], next_cursor: null });

      // A cursor continues the list it came from: under other filters it is refused, not read as their middle.
      const succeeded = (await get(`/actions/${action.name}/executions?status=succeeded&limit=1`)).body.next_cursor;
      const since = new Date(Date.now() - 3_600_000).toISOString();
      const otherFilters = 'cursor: was given for other filters; send the status, action, since and until of the page it came from';
      for (const query of ['', 'status=failed&', `status=succeeded&since=${since}&`, 'status=succeeded&until=2999-01-01T00:00:00Z&']) {
        const response = await get(`/actions/${action.name}/executions?${query}cursor=${encodeURIComponent(succeeded)}`);
        expect([query, response.status, response.body]).toEqual([query, 400, { error: 'Invalid request', details: otherFilters }]);
      }
      expect((await get(`/executions?status=succeeded&cursor=${encodeURIComponent(succeeded)}`)).body.details).toBe(otherFilters);
      // The same filters, however written: the per-action list and the tenant-wide one filtered by that action are one list.
      expect((await get(`/actions/${action.name}/executions?limit=1&status=succeeded&cursor=${encodeURIComponent(succeeded)}`)).status).toBe(200);
      expect((await get(`/executions?action=${action.name}&status=succeeded&cursor=${encodeURIComponent(succeeded)}`)).status).toBe(200);
      // A cursor of before cursors named their filters continues under any.
      const position = JSON.parse(Buffer.from(succeeded, 'base64url').subarray(0, -16).toString('utf8')).slice(0, 2);
      const legacy = suite.testApp.app.get(PageCursors).make('executions', tenant.tenantId, position);
      expect((await get(`/executions?status=failed&cursor=${encodeURIComponent(legacy)}`)).status).toBe(200);
    });

    it('the management API lists the same with every attempt, filtered and paged', async () => {
      const action = await actionAnswering(answer(200, '{"result":"ok"}'));
      await seed(action, 5, new Date(Date.now() - 5_000), 'failed');
      const first = await admin(suite.testApp, 'GET', `/tenants/${tenant.tenantId}/actions/${action.name}/executions?limit=3&status=failed`);
      expect(first.status).toBe(200);
      expect(first.body.executions).toHaveLength(3);
      expect(first.body.executions[0]).toEqual(expect.objectContaining({ attempt_log: [], replay_of: null }));
      const rest = await admin(suite.testApp, 'GET', `/tenants/${tenant.tenantId}/actions/${action.name}/executions?limit=3&status=failed&cursor=${encodeURIComponent(first.body.next_cursor)}`);
      expect(rest.body.executions).toHaveLength(2);
      expect(rest.body.next_cursor).toBeNull();
    });

    it('the management API gives the tenant-wide log, a lookup by id alone and the numbers, as the gateway gives them', async () => {
      const first = await actionAnswering(answer(200, '{"result":"ok"}'));
      await execute(first.name);
      const second = await actionAnswering(answer(503, '{"error":"down"}'));
      const failed = (await execute(second.name, { city: 'Bergen' })).body.execution;
      await seed(first, 4, new Date(Date.now() - 60_000), 'failed');
      const base = `/tenants/${tenant.tenantId}`;

      const wide = await admin(suite.testApp, 'GET', `${base}/executions?limit=3`);
      expect(wide.status).toBe(200);
      expect(wide.body.executions.map((execution: { id: string }) => execution.id)).toEqual(
        (await get('/executions?limit=3')).body.executions.map((execution: { id: string }) => execution.id),
      );
      expect(wide.body.executions[0]).toEqual(expect.objectContaining({ id: failed.id, action_name: second.name, attempt_log: expect.any(Array), replay_of: null }));
      const rest = await admin(suite.testApp, 'GET', `${base}/executions?limit=3&cursor=${encodeURIComponent(wide.body.next_cursor)}`);
      expect(rest.body.executions).toHaveLength(3);
      expect(rest.body.next_cursor).toBeNull();
      const filtered = await admin(suite.testApp, 'GET', `${base}/executions?action=${first.name}&status=failed`);
      expect(filtered.body.executions).toHaveLength(4);
      const refused = await admin(suite.testApp, 'GET', `${base}/executions?status=done&since=soon`);
      expect([refused.status, refused.body]).toEqual([
        400,
        { error: 'Invalid request', details: 'status: must be "succeeded", "failed", "pending" or "running"; since: must be an RFC 3339 date-time, like 2026-11-27T10:00:00Z' },
      ]);
      const unknownAction = await admin(suite.testApp, 'GET', `${base}/executions?action=no_such_action`);
      expect([unknownAction.status, unknownAction.body]).toEqual([404, { error: 'Action not found' }]);

      // The lookup by id alone is the per-action lookup's answer, payload included.
      const byId = await admin(suite.testApp, 'GET', `${base}/executions/${failed.id.toUpperCase()}`);
      expect(byId.status).toBe(200);
      expect(byId.body).toEqual((await admin(suite.testApp, 'GET', `${base}/actions/${second.name}/executions/${failed.id}`)).body);
      expect(byId.body.execution.payload.status).toBe('kept');
      expect(JSON.parse(byId.body.execution.payload.request.body).parameters).toEqual({ city: 'Bergen' });

      const stats = await admin(suite.testApp, 'GET', `${base}/stats`);
      expect([stats.status, stats.body]).toEqual([200, (await get('/stats')).body]);
      expect(stats.body.stats.hourly[47]).toMatchObject({ executions: 2, succeeded: 1, failed: 1 });
      const ofAction = await admin(suite.testApp, 'GET', `${base}/stats?action=${second.name}`);
      expect(ofAction.body).toEqual((await get(`/stats?action=${second.name}`)).body);
      const twice = await admin(suite.testApp, 'GET', `${base}/stats?action=a&action=b`);
      expect([twice.status, twice.body]).toEqual([400, { error: 'Invalid request', details: 'action: must be given once' }]);
      const unknownStats = await admin(suite.testApp, 'GET', `${base}/stats?action=no_such_action`);
      expect([unknownStats.status, unknownStats.body]).toEqual([404, { error: 'Action not found' }]);
    });

    it('the management API\'s tenant-wide log, lookup and numbers reveal nothing of another tenant', async () => {
      const mine = await actionAnswering(answer(200, '{"result":"mine"}'));
      const theirs = await actionAnswering(answer(200, '{"result":"theirs"}'), other, { name: mine.name });
      await execute(mine.name);
      await execute(mine.name);
      const theirExecution = (await execute(theirs.name, { city: 'x' }, other)).body.execution;

      for (const id of [theirExecution.id, 'not-a-uuid', randomUUID()]) {
        const response = await admin(suite.testApp, 'GET', `/tenants/${tenant.tenantId}/executions/${id}`);
        expect([id, response.status, response.body]).toEqual([id, 404, { error: 'Execution not found' }]);
      }
      const page = (await admin(suite.testApp, 'GET', `/tenants/${tenant.tenantId}/executions?limit=1`)).body;
      expect(page.executions).toHaveLength(1);
      const crossed = await admin(suite.testApp, 'GET', `/tenants/${other.tenantId}/executions?cursor=${encodeURIComponent(page.next_cursor)}`);
      expect([crossed.status, crossed.body]).toEqual([400, { error: 'Invalid request', details: 'cursor: is not a cursor this list gave' }]);
      const theirLog = (await admin(suite.testApp, 'GET', `/tenants/${other.tenantId}/executions`)).body;
      expect(theirLog.executions.map((execution: { id: string }) => execution.id)).toEqual([theirExecution.id]);
      const theirStats = (await admin(suite.testApp, 'GET', `/tenants/${other.tenantId}/stats`)).body.stats;
      expect(theirStats.hourly[47]).toMatchObject({ executions: 1 });
      expect(theirStats.actions).toEqual([expect.objectContaining({ action_name: theirs.name, executions: 1 })]);

      // A tenant's portal session reaches its own log only; an unknown tenant is not found.
      const link = (await admin(suite.testApp, 'POST', `/tenants/${tenant.tenantId}/portal-links`)).body.portal_link;
      const session = await redeemPortalLink(suite.testApp.baseUrl, link.token);
      expect((await withSession(suite.testApp.baseUrl, session, 'GET', `/tenants/${tenant.tenantId}/executions`)).body.executions).toHaveLength(2);
      for (const path of [`/tenants/${other.tenantId}/executions`, `/tenants/${other.tenantId}/executions/${theirExecution.id}`, `/tenants/${other.tenantId}/stats`]) {
        const response = await withSession(suite.testApp.baseUrl, session, 'GET', path);
        expect([path, response.status, response.body]).toEqual([path, 404, { error: 'Tenant not found' }]);
      }
      const unknown = await admin(suite.testApp, 'GET', `/tenants/${randomUUID()}/stats`);
      expect([unknown.status, unknown.body]).toEqual([404, { error: 'Tenant not found' }]);
      const unauthenticated = await call(suite.testApp.baseUrl, 'GET', `/api/v1/admin/tenants/${tenant.tenantId}/executions`);
      expect([unauthenticated.status, unauthenticated.body]).toEqual([401, { error: 'Invalid token' }]);
    });
  });

  describe('replay', () => {
    it('runs the action again with the same parameters against its current definition, signed anew under the original webhook-id', async () => {
      const action = await actionAnswering(answer(500, 'down'));
      const raw = '{"parameters":{"city":"Bergen","big":123456789012345678901234567890}}';
      const failed = (await gateway(suite.testApp, 'POST', `/actions/${action.name}/execute`, { token: tenant.jwt, raw, headers: { 'content-type': 'application/json' } })).body.execution;
      expect(failed.status).toBe('failed');

      // The receiver moves; the action follows it.
      const moved = await Receiver.start(executions(answer(200, '{"result":"done"}')));
      try {
        expect((await gateway(suite.testApp, 'PUT', `/actions/${action.name}`, { token: tenant.jwt, body: { webhook_url: moved.url('/v2') } })).status).toBe(200);
        moved.behaviour = executions(answer(200, '{"result":"done"}'));
        const replay = await gateway(suite.testApp, 'POST', `/actions/${action.name}/executions/${failed.id}/replay`, { token: tenant.jwt });
        expect(replay.status).toBe(200);
        expect(replay.body.execution).toMatchObject({ status: 'succeeded', result: 'done', replay_of: failed.id });
        expect(replay.body.execution.id).not.toBe(failed.id);
        const [call] = moved.calls.filter((each) => !JSON.parse(each.body).test);
        expect(call.path).toBe('/v2');
        expect(call.headers['webhook-id']).toBe(failed.id);
        expect(call.body).toContain('"parameters":{"city":"Bergen","big":123456789012345678901234567890}');

        // A replay of the replay names the original too.
        const again = await gateway(suite.testApp, 'POST', `/actions/${action.name}/executions/${replay.body.execution.id}/replay`, { token: tenant.jwt });
        expect(again.body.execution.replay_of).toBe(failed.id);
        const listed = (await get(`/actions/${action.name}/executions?limit=3`)).body.executions.map((execution: { id: string }) => execution.id);
        expect(listed).toEqual([again.body.execution.id, replay.body.execution.id, failed.id]);
        expect((await get(`/actions/${action.name}/executions/${replay.body.execution.id}`)).body.execution.replay_of).toBe(failed.id);
      } finally {
        await moved.stop();
      }
    });

    it('checks the parameters against the schema as it is now: 400 Invalid parameters, nothing sent', async () => {
      const action = await actionAnswering(answer(200, '{"result":"ok"}'));
      const execution = (await execute(action.name, { city: 'Oslo' })).body.execution;
      const schema = { type: 'object', properties: { city: { type: 'integer' } }, required: ['city'] };
      expect((await gateway(suite.testApp, 'PUT', `/actions/${action.name}`, { token: tenant.jwt, body: { json_schema: schema } })).status).toBe(200);
      const mark = suite.receiver.calls.length;
      const replay = await gateway(suite.testApp, 'POST', `/actions/${action.name}/executions/${execution.id}/replay`, { token: tenant.jwt });
      expect([replay.status, replay.body]).toEqual([400, { error: 'Invalid parameters', details: 'parameters.city: must be integer' }]);
      expect(suite.receiver.calls.length).toBe(mark);
    });

    it('answers 410 once the payload has expired (EXECUTION_PAYLOAD_RETENTION_DAYS), the execution still listed', async () => {
      const action = await actionAnswering(answer(200, '{"result":"ok"}'));
      const execution = (await execute(action.name)).body.execution;
      const old = new Date(Date.now() - 8 * DAY_MS);
      await suite.testApp.app.get(LogPartitionsRepository).ensure(old, old);
      await suite.dataSource.query(`UPDATE executions SET created_at = $2 WHERE id = $1`, [execution.id, old]);
      await suite.dataSource.query(`UPDATE execution_payloads SET created_at = $2 WHERE execution_id = $1`, [execution.id, old]);
      const detail = await get(`/actions/${action.name}/executions/${execution.id}`);
      expect(detail.body.execution.payload).toEqual({ status: 'expired', request: null, attempts: null });
      const replay = await gateway(suite.testApp, 'POST', `/actions/${action.name}/executions/${execution.id}/replay`, { token: tenant.jwt });
      expect([replay.status, replay.body]).toEqual([410, { error: 'execution cannot be replayed: its payload has expired (payloads are kept 7 days)' }]);
    });
  });

  describe('a lookup by id alone, for the tenant', () => {
    it('finds the tenant\'s execution from its id (a receiver\'s webhook-id) whichever its action, as the per-action lookup shows it', async () => {
      const action = await actionAnswering(answer(500, '{"error":"down"}'));
      const failed = (await execute(action.name, { city: 'Tromsø' })).body.execution;
      const webhookId = suite.receiver.calls[suite.receiver.calls.length - 1].headers['webhook-id'];
      expect(webhookId).toBe(failed.id);

      const byId = await get(`/executions/${String(webhookId).toUpperCase()}`);
      expect(byId.status).toBe(200);
      expect(byId.headers.get('cache-control')).toBe('no-store');
      expect(byId.body).toEqual((await get(`/actions/${action.name}/executions/${failed.id}`)).body);
      expect(byId.body.execution).toMatchObject({ id: failed.id, action_name: action.name, status: 'failed', replay_of: null });
      expect(JSON.parse(byId.body.execution.payload.request.body).parameters).toEqual({ city: 'Tromsø' });
    });

    it('answers 404 Execution not found for another tenant\'s id, an unknown one and a malformed one; 401 without a token', async () => {
      const theirs = await actionAnswering(answer(200, '{"result":"theirs"}'), other);
      const theirExecution = (await execute(theirs.name, { city: 'x' }, other)).body.execution;
      expect((await get(`/executions/${theirExecution.id}`, other)).status).toBe(200);
      for (const id of [theirExecution.id, randomUUID(), 'not-a-uuid']) {
        const response = await get(`/executions/${id}`);
        expect([id, response.status, response.body]).toEqual([id, 404, { error: 'Execution not found' }]);
      }
      const anonymous = await call(suite.testApp.baseUrl, 'GET', `/api/v1/gateway/executions/${theirExecution.id}`);
      expect([anonymous.status, anonymous.body]).toEqual([401, { error: 'Invalid token' }]);
    });

    it('lists each execution with replay_of, on the tenant-wide and the per-action list, as the management API does', async () => {
      const action = await actionAnswering(answer(200, '{"result":"ok"}'));
      const original = (await execute(action.name)).body.execution;
      const replay = (await gateway(suite.testApp, 'POST', `/actions/${action.name}/executions/${original.id}/replay`, { token: tenant.jwt })).body.execution;
      expect(replay.replay_of).toBe(original.id);
      const expected = [
        [replay.id, original.id],
        [original.id, null],
      ];
      for (const path of ['/executions', `/actions/${action.name}/executions`]) {
        const listed = (await get(path)).body.executions;
        expect(listed.map((execution: { id: string; replay_of: string | null }) => [execution.id, execution.replay_of])).toEqual(expected);
        expect(Object.keys(listed[0]).sort()).toEqual(
          ['action_name', 'attempts', 'created_at', 'duration_ms', 'error', 'http_status', 'id', 'replay_of', 'result', 'status'],
        );
      }
      const viaAdmin = (await admin(suite.testApp, 'GET', `/tenants/${tenant.tenantId}/executions`)).body.executions;
      expect(viaAdmin.map((execution: { id: string; replay_of: string | null }) => [execution.id, execution.replay_of])).toEqual(expected);
    });
  });

  describe('bulk replay', () => {
    const replayFailed = (name: string, body: unknown, owner = tenant) => gateway(suite.testApp, 'POST', `/actions/${name}/executions/replay`, { token: owner.jwt, body });

    it('replays what failed since a time, oldest first, skipping what cannot be replayed, and tells how far it got', async () => {
      const action = await actionAnswering(answer(503, 'down'));
      const since = new Date(Date.now() - 1_000);
      const failed: string[] = [];
      for (let i = 0; i < 3; i++) failed.push((await execute(action.name, { city: `c${i}` })).body.execution.id);
      await gateway(suite.testApp, 'PUT', `/actions/${action.name}/log-settings`, { token: tenant.jwt, body: { payload_logging: false } });
      const unlogged = (await execute(action.name)).body.execution.id;
      await gateway(suite.testApp, 'PUT', `/actions/${action.name}/log-settings`, { token: tenant.jwt, body: { payload_logging: true } });
      suite.receiver.behaviour = executions(answer(200, '{"result":"ok"}'));
      await execute(action.name); // a success: not replayed
      const mark = suite.receiver.calls.length;

      const started = await replayFailed(action.name, { since: since.toISOString() });
      expect(started.status).toBe(202);
      expect(started.body.replay).toMatchObject({ action_name: action.name, status: 'running', total: 4, since: since.toISOString() });
      await suite.testApp.app.get(BulkReplays).settled();
      const finished = await get(`/actions/${action.name}/replays/${started.body.replay.id}`);
      expect(finished.body.replay).toMatchObject({ status: 'done', total: 4, done: 4, left: 0, succeeded: 3, failed: 0, skipped: 1, stopped_reason: null });
      const calls = suite.receiver.calls.slice(mark);
      expect(calls.map((call) => call.headers['webhook-id'])).toEqual(failed);
      expect(calls.map((call) => JSON.parse(call.body).parameters.city)).toEqual(['c0', 'c1', 'c2']);
      expect(failed).not.toContain(unlogged);
      // Another tenant, with an action of the same name, finds no such replay.
      await actionAnswering(answer(200, '{}'), other, { name: action.name });
      const theirs = await get(`/actions/${action.name}/replays/${started.body.replay.id}`, other);
      expect([theirs.status, theirs.body]).toEqual([404, { error: 'Replay not found' }]);
    });

    it('sends each failed original once a run, never a replay, and nothing more once a replay delivered it (1, 1, 1, 1, then 1, then 0)', async () => {
      // A receiver that answers "not yet" (no retry: one call a replay), then recovers.
      const action = await actionAnswering(answer(200, '{"error":"not yet"}'));
      const since = new Date(Date.now() - 1_000);
      const original = (await execute(action.name, { city: 'Tromsø' })).body.execution;
      expect(original.status).toBe('failed');
      const run = async () => {
        const mark = suite.receiver.calls.length;
        const started = await replayFailed(action.name, { since: since.toISOString() });
        expect(started.status).toBe(202);
        await suite.testApp.app.get(BulkReplays).settled();
        const { body } = await get(`/actions/${action.name}/replays/${started.body.replay.id}`);
        const calls = suite.receiver.calls.slice(mark);
        // Every call is the original's, under its webhook-id.
        expect(calls.map((call) => [call.headers['webhook-id'], JSON.parse(call.body).parameters])).toEqual(calls.map(() => [original.id, { city: 'Tromsø' }]));
        return { calls: calls.length, replay: body.replay };
      };

      const whileFailing = [];
      for (let i = 0; i < 4; i++) whileFailing.push(await run());
      expect(whileFailing.map(({ calls }) => calls)).toEqual([1, 1, 1, 1]);
      for (const { replay } of whileFailing) expect(replay).toMatchObject({ status: 'done', total: 1, done: 1, left: 0, succeeded: 0, failed: 1, skipped: 0 });

      suite.receiver.behaviour = executions(answer(200, '{"result":"delivered"}'));
      const recovered = await run();
      expect(recovered.calls).toBe(1);
      expect(recovered.replay).toMatchObject({ status: 'done', total: 1, done: 1, succeeded: 1, failed: 0 });
      const again = await run();
      expect(again.calls).toBe(0);
      expect(again.replay).toMatchObject({ status: 'done', total: 0, done: 0, left: 0, succeeded: 0, failed: 0, skipped: 0 });

      // Stored: the original and five replays, each naming it; the last one delivered.
      const log = (await get(`/actions/${action.name}/executions?limit=10`)).body.executions as Array<{ id: string; status: string }>;
      expect(log.map((execution) => execution.status)).toEqual(['succeeded', 'failed', 'failed', 'failed', 'failed', 'failed']);
      for (const { id } of log.slice(0, 5)) expect((await get(`/actions/${action.name}/executions/${id}`)).body.execution.replay_of).toBe(original.id);
      expect(log.at(-1)!.id).toBe(original.id);
    });

    it('refuses a bad period and more than 1,000 executions with 400 naming the problem, and starts nothing', async () => {
      const action = await actionAnswering(answer(503, 'down'));
      await execute(action.name);
      const inAMinute = new Date(Date.now() + 60_000).toISOString();
      const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
      const cases: Array<[unknown, string]> = [
        [{}, 'since: is required'],
        [{ since: 'today' }, 'since: must be an RFC 3339 date-time, like 2026-11-27T10:00:00Z'],
        [{ since: '2026-11-27T10:00:00Z', until: '2026-11-27T09:00:00Z' }, 'until: must be later than since'],
        // The period ends now at the latest: a since from now on selects nothing (the lists refuse it too).
        [{ since: inAMinute }, 'since: must be in the past'],
        [{ since: inAMinute, until: inAnHour }, 'since: must be in the past'],
        [{ since: inAnHour, until: inAMinute }, 'since: must be in the past; until: must be later than since'],
      ];
      for (const [body, details] of cases) {
        const response = await replayFailed(action.name, body);
        expect([response.status, response.body]).toEqual([400, { error: 'Invalid request', details }]);
        // Under the management API the same.
        const asOperator = await admin(suite.testApp, 'POST', `/tenants/${tenant.tenantId}/actions/${action.name}/executions/replay`, body);
        expect([asOperator.status, asOperator.body]).toEqual([400, { error: 'Invalid request', details }]);
      }
      expect(await suite.dataSource.query('SELECT count(*)::int AS n FROM execution_replays WHERE tenant_id = $1', [tenant.tenantId])).toEqual([{ n: 0 }]);
      await seed(action, 1_001, new Date(Date.now() - 1_000), 'failed');
      const tooMany = await replayFailed(action.name, { since: new Date(Date.now() - 3_600_000).toISOString() });
      expect([tooMany.status, tooMany.body]).toEqual([400, { error: 'Invalid request', details: 'since: more than 1000 failed executions from then on; replay a shorter period (until)' }]);
    });

    it('stops a running replay when its tenant is disabled: nothing more goes out on the tenant\'s behalf', async () => {
      const action = await actionAnswering(answer(503, 'down'));
      for (let i = 0; i < 3; i++) await execute(action.name, { city: `c${i}` });
      // The first replay is held at the receiver until the tenant is disabled.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      suite.receiver.behaviour = executions((_, response) => void held.then(() => answer(200, '{"result":"ok"}')(_, response)));
      const mark = suite.receiver.calls.length;
      const started = await replayFailed(action.name, { since: new Date(Date.now() - 60_000).toISOString() });
      expect(started.status).toBe(202);
      await eventually(() => expect(suite.receiver.calls.length).toBe(mark + 1));
      expect((await admin(suite.testApp, 'PATCH', `/tenants/${tenant.tenantId}`, { status: 'disabled' })).status).toBe(200);
      release();
      await suite.testApp.app.get(BulkReplays).settled();
      const replay = await suite.testApp.app.get(BulkReplays).get(tenant.tenantId as never, action.name, started.body.replay.id);
      expect(replay).toMatchObject({ status: 'stopped', stopped_reason: 'the tenant is disabled', total: 3, done: 1, left: 2, succeeded: 1 });
      expect(suite.receiver.calls.length).toBe(mark + 1);
    });

    it('counts each replay against the tenant\'s hourly budget, and stops when it is spent', async () => {
      const limited = await startTestApp({ env: { RATE_LIMIT_PER_HOUR: '8', WEBHOOK_MAX_RETRIES: '0' } });
      try {
        const owner = await createTenant(limited);
        suite.receiver.behaviour = ok;
        const created = await gateway(limited, 'POST', '/actions', { token: owner.jwt, body: actionBody(suite.receiver.url()) }); // 1
        suite.receiver.behaviour = executions(answer(503, 'down'));
        const name = created.body.action.name;
        for (let i = 0; i < 4; i++) await gateway(limited, 'POST', `/actions/${name}/execute`, { token: owner.jwt, body: { parameters: { city: 'x' } } }); // 5
        suite.receiver.behaviour = executions(answer(200, '{"result":"ok"}'));
        const started = await gateway(limited, 'POST', `/actions/${name}/executions/replay`, { token: owner.jwt, body: { since: new Date(Date.now() - 60_000).toISOString() } }); // 6
        expect(started.status).toBe(202);
        await limited.app.get(BulkReplays).settled();
        const replay = (await limited.app.get(BulkReplays).get(owner.tenantId as never, name, started.body.replay.id));
        expect(replay).toMatchObject({ status: 'stopped', total: 4, done: 2, left: 2, succeeded: 2 });
        expect(replay.stopped_reason).toMatch(/^the tenant's hourly request budget is spent \(8\)/);
        expect((await gateway(limited, 'GET', '/actions', { token: owner.jwt })).status).toBe(429);
      } finally {
        await limited.close();
      }
    });
  });

  describe('a disabled tenant', () => {
    it('cannot have its actions run by an operator either: 409 for execute, replay and bulk replay, nothing sent, nothing stored', async () => {
      const action = await actionAnswering(answer(503, 'down'));
      const failed = (await execute(action.name)).body.execution;
      expect((await admin(suite.testApp, 'PATCH', `/tenants/${tenant.tenantId}`, { status: 'disabled' })).status).toBe(200);
      const mark = suite.receiver.calls.length;
      const count = async () => (await suite.dataSource.query('SELECT count(*)::int AS n FROM executions WHERE tenant_id = $1', [tenant.tenantId]))[0].n;
      const stored = await count();
      const base = `/tenants/${tenant.tenantId}/actions/${action.name}`;
      const runs: Array<[string, unknown]> = [
        [`${base}/execute`, { parameters: { city: 'Oslo' } }],
        [`${base}/executions/${failed.id}/replay`, undefined],
        [`${base}/executions/replay`, { since: new Date(Date.now() - 60_000).toISOString() }],
      ];
      const operator = await operatorSession(suite.testApp.baseUrl, suite.testApp.config.adminApiKey);
      for (const [path, body] of runs) {
        for (const refused of [await admin(suite.testApp, 'POST', path, body), await withSession(suite.testApp.baseUrl, operator, 'POST', path, body)]) {
          expect([refused.status, refused.body]).toEqual([409, { error: 'tenant is disabled: enable it to execute or replay its actions' }]);
        }
      }
      // As its own bearer token is.
      expect((await execute(action.name)).status).toBe(401);
      expect(suite.receiver.calls.length).toBe(mark);
      expect(await count()).toBe(stored);
      expect(await suite.dataSource.query('SELECT count(*)::int AS n FROM execution_replays WHERE tenant_id = $1', [tenant.tenantId])).toEqual([{ n: 0 }]);
      // Its log is still there to read, and once enabled again its actions run.
      expect((await admin(suite.testApp, 'GET', `${base}/executions`)).body.executions).toHaveLength(1);
      expect((await admin(suite.testApp, 'PATCH', `/tenants/${tenant.tenantId}`, { status: 'active' })).status).toBe(200);
      expect((await admin(suite.testApp, 'POST', `${base}/execute`, { parameters: { city: 'Oslo' } })).body.execution).toMatchObject({ status: 'failed', http_status: 503 });
    });
  });

  describe('numbers', () => {
    it('counts executions, successes, failures and p50/p95 per hour and per day, per action and per tenant, from rollups', async () => {
      const good = await actionAnswering(answer(200, '{"result":"ok"}'));
      for (let i = 0; i < 3; i++) await execute(good.name);
      suite.receiver.behaviour = executions(answer(200, '{"error":"no"}'));
      await execute(good.name);
      const stats = (await get('/stats')).body.stats;
      expect(stats.action_name).toBeNull();
      expect(stats.hourly).toHaveLength(48);
      expect(stats.daily).toHaveLength(30);
      const hour = stats.hourly[47];
      expect(hour).toMatchObject({ executions: 4, succeeded: 3, failed: 1 });
      expect(hour.p50_ms).toEqual(expect.any(Number));
      expect(hour.p95_ms).toBeGreaterThanOrEqual(hour.p50_ms);
      expect(stats.daily[29]).toMatchObject({ executions: 4, succeeded: 3, failed: 1 });
      expect(stats.actions).toEqual([expect.objectContaining({ action_name: good.name, executions: 4, succeeded: 3, failed: 1 })]);
      const one = (await get(`/stats?action=${good.name}`)).body.stats;
      expect(one.action_name).toBe(good.name);
      expect(one.hourly[47]).toEqual(hour);
      expect(one.actions).toBeUndefined();
      // Another tenant's numbers hold none of these.
      const theirs = (await get('/stats', other)).body.stats;
      expect(theirs.hourly.every((point: { executions: number }) => point.executions === 0)).toBe(true);
      expect((await get(`/stats?action=${good.name}`, other)).status).toBe(404);
    });

    it('writes the counts into the rollups within a second of the executions, with no statistics read', async () => {
      const action = await actionAnswering(answer(200, '{"result":"ok"}'));
      await execute(action.name);
      await execute(action.name);
      const stored = () =>
        suite.dataSource.query('SELECT executions, succeeded, failed FROM execution_stats_hourly WHERE tenant_id = $1 AND action_id = $2', [tenant.tenantId, action.id]);
      const rows = await eventually(async () => {
        const found = await stored();
        expect(found).toEqual([{ executions: 2, succeeded: 2, failed: 0 }]);
        return found;
      }, 5_000, 50);
      expect(rows).toHaveLength(1);
      // Written once: a second later the counts are still those of the two executions.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(await stored()).toEqual([{ executions: 2, succeeded: 2, failed: 0 }]);
    });
  });

  describe('storage', () => {
    it('deleting an action answers at once; its history, payloads and numbers go in the background', async () => {
      const action = await actionAnswering(answer(200, '{"result":"ok"}'));
      await execute(action.name);
      await seed(action, 2_000, new Date(Date.now() - 1_000));
      const deleted = await gateway(suite.testApp, 'DELETE', `/actions/${action.name}`, { token: tenant.jwt });
      expect(deleted.status).toBe(204);
      expect((await runMaintenance(suite.testApp.app)).ran).toBe(true);
      const left = async (table: string) =>
        (await suite.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1 AND ${table === 'execution_payloads' ? 'true' : 'action_id = $2'}`, table === 'execution_payloads' ? [tenant.tenantId] : [tenant.tenantId, action.id]))[0].n;
      expect(await left('executions')).toBe(0);
      expect(await left('execution_payloads')).toBe(0);
      expect(await left('execution_stats_hourly')).toBe(0);
      expect((await get('/stats')).body.stats.hourly[47].executions).toBe(0);
      expect((await get('/executions')).body.executions).toEqual([]);
    });

    it('retention drops whole partitions past it while requests run, and no request fails', async () => {
      const action = await actionAnswering(answer(200, '{"result":"ok"}'));
      const partitions = suite.testApp.app.get(LogPartitionsRepository);
      const old = new Date(Date.now() - 40 * DAY_MS);
      await seed(action, 50, old);
      const dayOf = (table: string) => `${table}_p${new Date(Math.floor(old.getTime() / DAY_MS) * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;
      // The log before partitioning is the first partition (up to the day after the move), so 40 days back is
      // there; the other tables have a partition of that day.
      const names = async () => (await partitions.withConnection((sql) => partitions.list(sql))).map((partition) => partition.name);
      const sideTables = ['execution_payloads', 'execution_stats_hourly', 'execution_stats_daily'];
      expect(await names()).toEqual(expect.arrayContaining(sideTables.map(dayOf)));
      expect((await get(`/actions/${action.name}/executions`)).body.executions).toEqual([]);

      let running = true;
      const statuses: number[] = [];
      const load = (async () => {
        while (running) {
          const [listed, executed] = await Promise.all([get(`/actions/${action.name}/executions?limit=5`), execute(action.name)]);
          statuses.push(listed.status, executed.status);
        }
      })();
      const report = await runMaintenance(suite.testApp.app, true);
      running = false;
      await load;
      expect(report.ran).toBe(true);
      expect(report.dropped).toEqual(expect.arrayContaining(sideTables.map(dayOf)));
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((status) => status === 200)).toBe(true);
      const after = await partitions.withConnection((sql) => partitions.list(sql));
      for (const table of sideTables) expect(after.map((partition) => partition.name)).not.toContain(dayOf(table));
      // Partitions stand ready for the coming week, for every table of the log.
      const ahead = new Date(Date.now() + 6 * DAY_MS);
      for (const table of ['executions', 'execution_payloads', 'execution_stats_hourly', 'execution_stats_daily']) {
        expect(after.some((partition) => partition.table === table && (partition.from === null || partition.from <= ahead) && partition.to > ahead)).toBe(true);
      }
    });

    it('one replica at a time: a run finding the lock held skips', async () => {
      const partitions = suite.testApp.app.get(LogPartitionsRepository);
      const upkeep = suite.testApp.app.get(ExecutionLogMaintenanceRepository);
      const maintenance = suite.testApp.app.get(ExecutionLogMaintenance);
      // Only a server has sessions of their own: the embedded database is one session, where the lock is re-entrant.
      if (suite.testApp.app.get(DataSource).options.type === 'postgres' && process.env.DATABASE_URL) {
        await partitions.withConnection(async (session) => {
          // Held as another replica's run holds it (on a shared database, once another worker's run has let it go).
          while (!(await upkeep.tryLock(session))) await new Promise((resolve) => setTimeout(resolve, 100));
          expect((await maintenance.run(true)).ran).toBe(false);
          await upkeep.unlock(session);
        });
      }
      // Once let go, a run takes the lock (on a shared database, once another worker's replica has ended its own run).
      expect((await runMaintenance(suite.testApp.app, true)).ran).toBe(true);
    });
  });
});
