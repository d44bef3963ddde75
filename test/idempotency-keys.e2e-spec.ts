import { IDEMPOTENCY_META_KEY, REPLAYED_META_KEY } from '../src/tools/mcp/mcp-endpoint';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { eventually } from './support/eventually';
import { call } from './support/http';
import { runMaintenance } from './support/maintenance';
import { Held, ok } from './support/receiver';
import { appWithReceiver } from './support/test-app';

const MCP_PATH = '/api/v1/gateway/mcp';
const JSON_RPC_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const INVALID_KEY = { error: 'Invalid request', details: 'Idempotency-Key: must be 1 to 255 printable ASCII characters' };

/**
 * Idempotency keys on execute (docs/decisions.md, "Idempotency keys"): a key sent again answers the execution it
 * made without calling the receiver again, other parameters under it get 422, a key whose first request still runs
 * gets 409, per tenant, kept in the database for 24 hours and deleted by the log's maintenance after.
 */
describe('idempotency keys on execute', () => {
  const suite = appWithReceiver();
  let tenant: TestTenant;
  let name: string;
  let counter = 0;

  beforeEach(async () => {
    suite.receiver.behaviour = ok;
    tenant = await createTenant(suite.testApp);
    name = await actionOf(tenant);
  });

  async function actionOf(owner: TestTenant): Promise<string> {
    suite.receiver.behaviour = ok;
    const created = await gateway(suite.testApp, 'POST', '/actions', { token: owner.jwt, body: actionBody(suite.receiver.url(`/hook/${++counter}`)) });
    expect(created.status).toBe(201);
    return created.body.action.name;
  }

  /** The calls the receiver got for the action (the registration test left out). */
  const callsTo = (action: string) => suite.receiver.calls.filter((each) => !JSON.parse(each.body).test && JSON.parse(each.body).action_name === action);

  const execute = (key: string | undefined, parameters: Record<string, unknown> = { city: 'Oslo' }, owner = tenant, action = name, extra: Record<string, string> = {}) =>
    gateway(suite.testApp, 'POST', `/actions/${action}/execute`, { token: owner.jwt, body: { parameters }, headers: { ...(key === undefined ? {} : { 'idempotency-key': key }), ...extra } });

  const storedKeys = async (owner = tenant) =>
    (await suite.dataSource.query(`SELECT idempotency_key, execution_id FROM idempotency_keys WHERE tenant_id = $1 ORDER BY idempotency_key`, [owner.tenantId])) as Array<{ idempotency_key: string; execution_id: string }>;

  it('answers the same key and parameters with the stored execution (same id, body and status), saying so, without a second call', async () => {
    const first = await execute('order-42');
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(first.body.execution).toMatchObject({ action_name: name, status: 'succeeded', result: 'done' });

    const again = await execute('order-42');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const calls = callsTo(name);
    expect(calls).toHaveLength(1);
    expect(calls[0].headers['webhook-id']).toBe(first.body.execution.id);
    expect(await storedKeys()).toEqual([{ idempotency_key: 'order-42', execution_id: first.body.execution.id }]);
    // Its detail names the key (the console's execution page shows it).
    const detail = await gateway(suite.testApp, 'GET', `/executions/${first.body.execution.id}`, { token: tenant.jwt });
    expect(detail.body.execution.idempotency_key).toBe('order-42');

    // The management API's execute shares the tenant's keys.
    const viaAdmin = await admin(suite.testApp, 'POST', `/tenants/${tenant.tenantId}/actions/${name}/execute`, { parameters: { city: 'Oslo' } });
    expect(viaAdmin.status).toBe(200);
    expect(viaAdmin.body.execution.id).not.toBe(first.body.execution.id);
    const count = Number((await suite.dataSource.query(`SELECT count(*) AS n FROM executions WHERE tenant_id = $1`, [tenant.tenantId]))[0].n);
    expect(count).toBe(2);
  });

  it('refuses the same key with other parameters, or for another action, with 422 naming the key, and sends nothing', async () => {
    const first = await execute('k-1');
    expect(first.status).toBe(200);
    const other = await execute('k-1', { city: 'Bergen' });
    expect([other.status, other.body]).toEqual([
      422,
      { error: "idempotency key 'k-1' was first used with other parameters or another action: a key stands for one request" },
    ]);
    const otherAction = await actionOf(tenant);
    const elsewhere = await execute('k-1', { city: 'Oslo' }, tenant, otherAction);
    expect(elsewhere.status).toBe(422);
    expect(callsTo(name)).toHaveLength(1);
    expect(callsTo(otherAction)).toHaveLength(0);
  });

  it('answers 409 with Retry-After while the first request with the key is still running, then the execution once it is stored', async () => {
    const held = new Held();
    suite.receiver.behaviour = held.behaviour;
    const first = execute('slow-1');
    await eventually(() => expect(held.responses).toHaveLength(1));

    const concurrent = await Promise.all([execute('slow-1'), execute('slow-1')]);
    for (const response of concurrent) {
      expect([response.status, response.body]).toEqual([409, { error: "idempotency key 'slow-1' is in use by a request still running: try again in 1 s for its execution" }]);
      expect(response.headers.get('retry-after')).toBe('1');
    }
    held.release();
    const answered = await first;
    expect(answered.status).toBe(200);
    const after = await execute('slow-1');
    expect([after.status, after.body, after.headers.get('idempotent-replayed')]).toEqual([200, answered.body, 'true']);
    expect(callsTo(name)).toHaveLength(1);
  });

  it('answers a retry made after the schema was tightened with the stored execution (409 while it runs); a new request it refuses claims nothing', async () => {
    const first = await execute('tight-1');
    expect(first.status).toBe(200);
    const held = new Held();
    suite.receiver.behaviour = held.behaviour;
    const running = execute('tight-2');
    await eventually(() => expect(held.responses).toHaveLength(1));

    suite.receiver.behaviour = ok;
    const json_schema = { type: 'object', properties: { city: { type: 'string' }, country: { type: 'string' } }, required: ['city', 'country'] };
    expect((await gateway(suite.testApp, 'PUT', `/actions/${name}`, { token: tenant.jwt, body: { json_schema } })).status).toBe(200);
    const refused = { error: 'Invalid parameters', details: expect.stringContaining('country') };

    const again = await execute('tight-1');
    expect([again.status, again.body, again.headers.get('idempotent-replayed')]).toEqual([200, first.body, 'true']);
    const whileRunning = await execute('tight-2');
    expect([whileRunning.status, whileRunning.headers.get('retry-after')]).toEqual([409, '1']);
    suite.receiver.behaviour = held.behaviour;
    held.release();
    expect((await running).status).toBe(200);
    // Other parameters under a used key, and a new key, get what the checks say; the new key stays free.
    expect([(await execute('tight-1', { city: 'Bergen' })).status, (await execute('tight-1', { city: 'Bergen' })).body]).toEqual([400, refused]);
    const fresh = await execute('tight-3');
    expect([fresh.status, fresh.body]).toEqual([400, refused]);
    expect((await storedKeys()).map((row) => row.idempotency_key)).toEqual(['tight-1', 'tight-2']);
    suite.receiver.behaviour = ok;
    expect((await execute('tight-3', { city: 'Oslo', country: 'NO' })).status).toBe(200);
    expect(callsTo(name)).toHaveLength(3);
  });

  it('makes one call for ten concurrent copies of a keyed request', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => execute('burst-1')));
    expect(answers.filter((response) => response.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(answers.every((response) => response.status === 200 || response.status === 409)).toBe(true);
    expect(new Set(answers.filter((response) => response.status === 200).map((response) => response.body.execution.id)).size).toBe(1);
    expect(callsTo(name)).toHaveLength(1);
  });

  it('refuses a key that is empty, longer than 255 characters or not printable ASCII with 400, and sends nothing', async () => {
    for (const key of ['', 'x'.repeat(256), 'tab\there', 'caf\u00e9']) {
      const response = await execute(key);
      expect([response.status, response.body]).toEqual([400, INVALID_KEY]);
    }
    expect((await execute('x'.repeat(255))).status).toBe(200);
    expect((await execute(' !~'.repeat(3))).status).toBe(200);
    expect(callsTo(name)).toHaveLength(2);
  });

  it('keeps keys per tenant: another tenant\'s same key is a key of its own', async () => {
    const other = await createTenant(suite.testApp);
    const otherAction = await actionOf(other);
    const mine = await execute('shared-key');
    const theirs = await execute('shared-key', { city: 'Oslo' }, other, otherAction);
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.execution.id).not.toBe(mine.body.execution.id);
    expect(callsTo(otherAction)).toHaveLength(1);
    // Tenant B's other parameters under the key are B's business: not A's 422.
    const theirsAgain = await execute('shared-key', { city: 'Oslo' }, other, otherAction);
    expect(theirsAgain.body.execution.id).toBe(theirs.body.execution.id);
  });

  it('answers the same accepted execution to a retry with Prefer: respond-async (202, its current state)', async () => {
    const held = new Held();
    suite.receiver.behaviour = held.behaviour;
    const prefer = { prefer: 'respond-async' };
    const first = await execute('async-1', { city: 'Oslo' }, tenant, name, prefer);
    expect(first.status).toBe(202);
    const again = await execute('async-1', { city: 'Oslo' }, tenant, name, prefer);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.body.execution.id).toBe(first.body.execution.id);
    // Without Prefer too: the key's answer is as its first request was.
    const sync = await execute('async-1');
    expect([sync.status, sync.body.execution.id]).toEqual([202, first.body.execution.id]);

    await eventually(() => expect(held.responses).toHaveLength(1));
    held.release();
    const finished = await eventually(async () => {
      const read = await execute('async-1');
      expect(read.body.execution.status).toBe('succeeded');
      return read;
    });
    expect(finished.status).toBe(202);
    expect(callsTo(name)).toHaveLength(1);
  });

  it('takes over a key whose first request stopped before storing anything, under the same execution id (webhook-id)', async () => {
    const first = await execute('crashed-1');
    // As if the replica had died mid-call: the key is claimed, its execution never stored, its lease run out.
    for (const [table, column] of [['execution_payloads', 'execution_id'], ['executions', 'id']]) {
      await suite.dataSource.query(`DELETE FROM ${table} WHERE tenant_id = $1 AND ${column} = $2`, [tenant.tenantId, first.body.execution.id]);
    }
    const held = await execute('crashed-1');
    expect(held.status).toBe(409);
    await suite.dataSource.query(`UPDATE idempotency_keys SET leased_until = now() - interval '1 second' WHERE tenant_id = $1`, [tenant.tenantId]);
    const retried = await execute('crashed-1');
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.body.execution.id).toBe(first.body.execution.id);
    expect(callsTo(name).map((each) => each.headers['webhook-id'])).toEqual([first.body.execution.id, first.body.execution.id]);
  });

  it('lets a key go after 24 hours: the maintenance deletes it, and it is claimed anew meanwhile', async () => {
    const first = await execute('old-1');
    const fresh = await execute('fresh-1');
    expect([first.status, fresh.status]).toEqual([200, 200]);
    await suite.dataSource.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE tenant_id = $1 AND idempotency_key = 'old-1'`, [tenant.tenantId]);

    // Expired but not deleted yet: a new request with it is a new execution.
    const reused = await execute('old-1', { city: 'Bergen' });
    expect(reused.status).toBe(200);
    expect(reused.body.execution.id).not.toBe(first.body.execution.id);

    await suite.dataSource.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE tenant_id = $1 AND idempotency_key = 'old-1'`, [tenant.tenantId]);
    await runMaintenance(suite.testApp.app, true);
    expect((await storedKeys()).map((row) => row.idempotency_key)).toEqual(['fresh-1']);
  });

  describe('MCP tools/call', () => {
    const rpc = (body: unknown, headers: Record<string, string> = {}) =>
      call(suite.testApp.baseUrl, 'POST', MCP_PATH, { body, headers: { ...JSON_RPC_HEADERS, authorization: `Bearer ${tenant.jwt}`, ...headers } });
    const toolCall = (id: number, key: unknown, args: Record<string, unknown> = { city: 'Oslo' }, extra: Record<string, unknown> = {}) =>
      rpc({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(key === undefined ? {} : { _meta: { [IDEMPOTENCY_META_KEY]: key } }), ...extra } });

    it('runs a keyed call once: the retry answers the first result, marked as replayed', async () => {
      const first = await toolCall(1, 'mcp-1');
      expect(first.body.result.isError).toBe(false);
      expect(first.body.result._meta[REPLAYED_META_KEY]).toBeUndefined();
      const again = await toolCall(2, 'mcp-1');
      expect(again.body.result.content).toEqual(first.body.result.content);
      expect(again.body.result._meta[REPLAYED_META_KEY]).toBe(true);
      expect(callsTo(name)).toHaveLength(1);

      const reused = await toolCall(3, 'mcp-1', { city: 'Bergen' });
      expect(reused.body.result).toEqual({
        content: [{ type: 'text', text: "idempotency key 'mcp-1' was first used with other parameters or another action: a key stands for one request" }],
        isError: true,
      });
      // The REST API's key is the same key.
      const rest = await execute('mcp-1');
      expect(rest.headers.get('idempotent-replayed')).toBe('true');
      expect(callsTo(name)).toHaveLength(1);
    });

    it('takes the key from the Idempotency-Key header of the MCP request too, and a task retried answers the same task', async () => {
      const body = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { city: 'Oslo' } } });
      const first = await rpc(body(1), { 'idempotency-key': 'mcp-header' });
      const again = await rpc(body(2), { 'idempotency-key': 'mcp-header' });
      expect(again.body.result._meta[REPLAYED_META_KEY]).toBe(true);
      expect(again.body.result.content).toEqual(first.body.result.content);

      const task = await toolCall(3, 'mcp-task', { city: 'Oslo' }, { task: {} });
      const taskAgain = await toolCall(4, 'mcp-task', { city: 'Oslo' }, { task: {} });
      expect(taskAgain.body.result.task.taskId).toBe(task.body.result.task.taskId);
      expect(taskAgain.body.result._meta[REPLAYED_META_KEY]).toBe(true);
      await eventually(() => expect(callsTo(name)).toHaveLength(2));
    });

    it('refuses a malformed key as invalid params, and calls nothing', async () => {
      for (const key of ['', 'x'.repeat(256), 7]) {
        const response = await toolCall(1, key);
        expect(response.body.error).toEqual({
          code: -32602,
          message: `Invalid idempotency key (_meta "${IDEMPOTENCY_META_KEY}", or the Idempotency-Key header): must be 1 to 255 printable ASCII characters`,
        });
      }
      expect(callsTo(name)).toHaveLength(0);
    });
  });
});
