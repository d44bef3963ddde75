import type { ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, McpError, RELATED_TASK_META_KEY, TaskSchema } from '@modelcontextprotocol/sdk/types.js';
import { DataSource } from 'typeorm';
import { EXECUTION_META_KEY } from '../src/tools/mcp/mcp-endpoint';
import { eventually } from './support/eventually';
import { actionBody, createTenant, gateway, TestTenant } from './support/factories';
import { call } from './support/http';
import { Receiver } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

const MCP_PATH = '/api/v1/gateway/mcp';
const RETENTION_MS = 30 * 86_400_000;

/** The SDK's own client over Streamable HTTP, with the bearer token as a header. */
async function connect(baseUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: 'e2e-tasks', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP_PATH, baseUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/**
 * MCP tasks (issue 40, item 5): tools/call made as a task is accepted at once (the same durable execution as
 * `Prefer: respond-async`), and tasks/get, tasks/result and tasks/list answer from the database, on any replica,
 * for the tenant's own executions only. Checked with the SDK's experimental tasks client.
 */
describe('MCP tasks over the durable executions, with the SDK client', () => {
  let replicaA: TestApp;
  let replicaB: TestApp;
  let receiver: Receiver;
  let tenant: TestTenant;
  let weather: string;
  let onA: Client;
  let onB: Client;
  const held: ServerResponse[] = [];
  let holding = false;

  beforeAll(async () => {
    // Two replicas of the service on one database: a task made through one is read through the other. A held call
    // must outlast the reads made meanwhile on a busy machine (a call that timed out is not retried); no test here
    // waits for a timeout. The lease stays above the timeout, as the configuration requires.
    replicaA = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: '20000', ASYNC_EXECUTION_LEASE_MS: '25000' } });
    replicaB = await startTestApp({ config: replicaA.config });
    receiver = await Receiver.start((received, response) => {
      const body = JSON.parse(received.body) as { test?: boolean; parameters: { city?: string } };
      if (holding && !body.test) return void held.push(response);
      const answer = body.parameters.city === 'Atlantis' ? { result: null, error: 'no such city' } : { result: `Sunny in ${body.parameters.city ?? '?'}`, error: '' };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    tenant = await createTenant(replicaA);
    const body = actionBody(receiver.url(), { json_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } });
    weather = body.name;
    expect((await gateway(replicaA, 'POST', '/actions', { token: tenant.jwt, body })).status).toBe(201);
    onA = await connect(replicaA.baseUrl, tenant.jwt);
    onB = await connect(replicaB.baseUrl, tenant.jwt);
  });
  afterAll(async () => {
    for (const response of held.splice(0)) response.destroy();
    await onA?.close();
    await onB?.close();
    await receiver.stop();
    await replicaB.close();
    await replicaA.close();
  });

  const release = () => {
    holding = false;
    for (const response of held.splice(0)) response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'Foggy, at last', error: '' }));
  };

  it('declares tasks for tools/call and tasks/list (not tasks/cancel), and every tool takes them optionally', async () => {
    expect(onA.getServerCapabilities()?.tasks).toEqual({ list: {}, requests: { tools: { call: {} } } });
    const { tools } = await onA.listTools();
    expect(tools.map((tool) => [tool.name, tool.execution])).toEqual([[weather, { taskSupport: 'optional' }]]);
  });

  it('answers a tools/call task at once, working; the SDK streams it to its result, which is the execution’s', async () => {
    const messages = [];
    for await (const message of onA.experimental.tasks.callToolStream({ name: weather, arguments: { city: 'Oslo' } }, CallToolResultSchema, { task: { ttl: 60_000 } })) {
      messages.push(message);
    }
    const [created, ...rest] = messages;
    expect(created.type).toBe('taskCreated');
    const task = (created as { task: { taskId: string } }).task;
    expect(TaskSchema.parse(task)).toMatchObject({ status: 'working', ttl: RETENTION_MS, pollInterval: 1_000 });
    const result = rest.at(-1) as { type: string; result: { content: unknown; isError: boolean; _meta: Record<string, unknown> } };
    expect(result.type).toBe('result');
    expect(result.result.content).toEqual([{ type: 'text', text: 'Sunny in Oslo' }]);
    expect(result.result.isError).toBe(false);
    expect(result.result._meta[RELATED_TASK_META_KEY]).toEqual({ taskId: task.taskId });
    expect(result.result._meta[EXECUTION_META_KEY]).toMatchObject({ id: task.taskId, status: 'succeeded', result: 'Sunny in Oslo', attempts: 1 });
    // The task is the execution: its id is the webhook-id the receiver got.
    expect(receiver.calls.filter((received) => received.headers['webhook-id'] === task.taskId)).toHaveLength(1);
    const stored = await replicaA.app.get(DataSource).query(`SELECT status FROM executions WHERE id = $1`, [task.taskId]);
    expect(stored).toEqual([{ status: 'succeeded' }]);
  });

  it('is read from any replica: tasks/get says working while the call is out, tasks/result waits for the end', async () => {
    holding = true;
    const created = await onA.request(
      { method: 'tools/call', params: { name: weather, arguments: { city: 'London' }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    expect(created.task).toMatchObject({ status: 'working', statusMessage: expect.any(String), ttl: RETENTION_MS, pollInterval: 1_000 });
    expect(created.task.createdAt).toBe(created.task.lastUpdatedAt);
    const { taskId } = created.task;
    await eventually(() => expect(held).toHaveLength(1));

    const working = await onB.experimental.tasks.getTask(taskId);
    expect(working).toMatchObject({ taskId, status: 'working', statusMessage: 'running: the call is out', createdAt: created.task.createdAt });
    const waiting = onB.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    // The wait above is for the outcome: it ends only once the held call is answered. Still pending past the
    // server's second look at the task (at once, then every pollInterval, 1 s): it did not answer it unfinished.
    const settled = waiting.then(
      () => 'settled',
      () => 'settled',
    );
    expect(await Promise.race([settled, new Promise((resolve) => setTimeout(() => resolve('pending'), 1_500))])).toBe('pending');
    expect(held).toHaveLength(1);
    release();
    const result = await waiting;
    expect(result.content).toEqual([{ type: 'text', text: 'Foggy, at last' }]);
    expect(result._meta?.[RELATED_TASK_META_KEY]).toEqual({ taskId });
    const completed = await onA.experimental.tasks.getTask(taskId);
    expect(completed).toMatchObject({ taskId, status: 'completed' });
    expect(completed.statusMessage).toBeUndefined();
    expect(Date.parse(completed.lastUpdatedAt)).toBeGreaterThanOrEqual(Date.parse(completed.createdAt));

    // tasks/list, from the other replica: the tenant's executions, newest first.
    const listed = await onB.experimental.tasks.listTasks();
    expect(listed.tasks[0]).toMatchObject({ taskId, status: 'completed' });
    expect(listed.tasks.map((task) => task.taskId)).toContain(taskId);
  });

  it('fails a task whose call failed, with the receiver’s error as its message and an isError result', async () => {
    const created = await onA.request({ method: 'tools/call', params: { name: weather, arguments: { city: 'Atlantis' }, task: {} } }, CreateTaskResultSchema);
    const failed = await eventually(async () => {
      const task = await onB.experimental.tasks.getTask(created.task.taskId);
      expect(task.status).toBe('failed');
      return task;
    });
    expect(failed.statusMessage).toBe('no such city');
    const result = await onB.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'no such city' }], isError: true });
  });

  it('makes no task of a call that would not be made: parameters the schema refuses, an unknown tool', async () => {
    const before = receiver.calls.length;
    const refused = await onA
      .request({ method: 'tools/call', params: { name: weather, arguments: { city: 7 }, task: {} } }, CreateTaskResultSchema)
      .then(() => undefined as never, (error: McpError) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect([refused.code, refused.message]).toEqual([-32602, 'MCP error -32602: Invalid parameters: parameters.city: must be string']);
    const unknown = await onA
      .request({ method: 'tools/call', params: { name: 'no_such_tool', arguments: {}, task: {} } }, CreateTaskResultSchema)
      .then(() => undefined as never, (error: McpError) => error);
    expect([unknown.code, unknown.message]).toEqual([-32602, 'MCP error -32602: Unknown tool: no_such_tool']);
    expect(receiver.calls.length).toBe(before);
  });

  it('keeps tasks to their tenant: another tenant’s client finds none of them', async () => {
    const created = await onA.request({ method: 'tools/call', params: { name: weather, arguments: { city: 'Oslo' }, task: {} } }, CreateTaskResultSchema);
    const other = await createTenant(replicaA);
    const otherClient = await connect(replicaB.baseUrl, other.jwt);
    try {
      const get = await otherClient.experimental.tasks.getTask(created.task.taskId).then(() => undefined as never, (error: McpError) => error);
      expect([get.code, get.message]).toEqual([-32602, 'MCP error -32602: Failed to retrieve task: Task not found']);
      const result = await otherClient.experimental.tasks
        .getTaskResult(created.task.taskId, CallToolResultSchema)
        .then(() => undefined as never, (error: McpError) => error);
      expect([result.code, result.message]).toEqual([-32602, `MCP error -32602: Task not found: ${created.task.taskId}`]);
      expect((await otherClient.experimental.tasks.listTasks()).tasks).toEqual([]);
    } finally {
      await otherClient.close();
    }
  });

  it('answers tasks/cancel (not offered) with an error, and the task goes on', async () => {
    const created = await onA.request({ method: 'tools/call', params: { name: weather, arguments: { city: 'Paris' }, task: {} } }, CreateTaskResultSchema);
    const refused = await call(replicaA.baseUrl, 'POST', MCP_PATH, {
      token: tenant.jwt,
      headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: { jsonrpc: '2.0', id: 9, method: 'tasks/cancel', params: { taskId: created.task.taskId } },
    });
    expect(refused.status).toBe(200);
    expect(refused.body.error.code).toBe(-32601);
    await eventually(async () => expect((await onB.experimental.tasks.getTask(created.task.taskId)).status).toBe('completed'));
  });
});
