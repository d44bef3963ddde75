import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { Attack, ATTACKS, EXECUTE_STATUSES, REGISTER_STATUSES } from '../bench/lib/attacks.mjs';
import { CUT_MARKER, MAX_STORED_TEXT } from '../src/executions/execution-outcome';
import { TOOL_FORMATS } from '../src/tools/dto/tool-list.response';
import { actionBody, createTenant, gateway, TestTenant } from './support/factories';
import { TestResponse } from './support/http';
import { ok, Receiver } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';
import { eventLoopCpuMs } from './support/timing';

/**
 * Issue 11: no tenant's input may stall, break or crash the service for another. Each attack class is replayed
 * by a hostile tenant while a neighbour tenant polls `GET /actions` back to back; the attacker must get a
 * contract answer (never a 5xx) and the neighbour must never wait long. The bounds are 2 s for an answer
 * and 100 ms of delay for the neighbour; this machine is shared and slow, so the test allows 10 s for an answer,
 * and 1 s of the event loop's own CPU time between two of the neighbour's answers (a blocked event loop, the
 * failure this guards against, took 5 s to minutes of it). CPU time, because the time between two answers also
 * counts what other processes of a loaded machine ran meanwhile; that gap gets a bound of its own, 10 s, for a
 * neighbour kept waiting on something other than the event loop. The real figures come from bench/isolation.mjs
 * (docs/reliability.md).
 */
const ATTACKER_BOUND_MS = 10_000;
const NEIGHBOUR_CPU_BOUND_MS = 1_000;
const NEIGHBOUR_WAIT_BOUND_MS = 10_000;
const DEFAULT_ANSWER = JSON.stringify({ result: 'ok', error: '' });

/**
 * A tenant polling `GET /actions` back to back. The longest gap between two answers is how long it waited; the
 * event loop's CPU time in the longest such gap is how long the app held it up (the wall time where /proc is
 * missing).
 */
class Neighbour {
  private stopped = false;
  private readonly statuses = new Map<number, number>();
  private longestGap = 0;
  private longestBusy = 0;
  private answers = 0;
  private readonly done: Promise<void>;

  constructor(testApp: TestApp, tenant: TestTenant) {
    this.done = this.poll(testApp, tenant);
  }

  async stop(): Promise<{ answers: number; statuses: Record<number, number>; longestGapMs: number; longestBusyMs: number }> {
    this.stopped = true;
    await this.done;
    return { answers: this.answers, statuses: Object.fromEntries(this.statuses), longestGapMs: Math.round(this.longestGap), longestBusyMs: Math.round(this.longestBusy) };
  }

  private async poll(testApp: TestApp, tenant: TestTenant): Promise<void> {
    let last = performance.now();
    let lastCpu = eventLoopCpuMs();
    while (!this.stopped) {
      const response = await gateway(testApp, 'GET', '/actions', { token: tenant.jwt });
      const now = performance.now();
      const cpu = eventLoopCpuMs();
      this.longestGap = Math.max(this.longestGap, now - last);
      this.longestBusy = Math.max(this.longestBusy, cpu === undefined || lastCpu === undefined ? now - last : cpu - lastCpu);
      last = now;
      lastCpu = cpu;
      this.answers += 1;
      this.statuses.set(response.status, (this.statuses.get(response.status) ?? 0) + 1);
    }
  }
}

describe('tenant isolation (issue 11)', () => {
  let testApp: TestApp;
  let receiver: Receiver;
  let attacker: TestTenant;
  let neighbour: TestTenant;
  let answer = DEFAULT_ANSWER;

  beforeAll(async () => {
    // One attacker replays every attack back to back: its hourly budget and its worker time per minute (issue 27)
    // would refuse it long before the end, and what is checked here is what each attack costs the neighbour.
    testApp = await startTestApp({ env: { RATE_LIMIT_PER_HOUR: '1000000000', SCHEMA_WORKER_MS_PER_MINUTE: '3600000' } });
    receiver = await Receiver.start((call, response) => {
      if (JSON.parse(call.body).test) return ok(call, response);
      response.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    });
    attacker = await createTenant(testApp);
    neighbour = await createTenant(testApp);
    for (let i = 0; i < 5; i++) expect((await gateway(testApp, 'POST', '/actions', { token: neighbour.jwt, body: actionBody(receiver.url()) })).status).toBe(201);
  });
  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
  });
  afterEach(() => {
    answer = DEFAULT_ANSWER;
  });

  /** One request of the attacker: a status the contract allows for it, in time. */
  async function attackerRequest(what: string, allowed: number[], send: () => Promise<TestResponse>): Promise<TestResponse> {
    const started = performance.now();
    const response = await send();
    const elapsed = performance.now() - started;
    expect({ what, status: response.status, allowed: allowed.includes(response.status), inTime: elapsed < ATTACKER_BOUND_MS }).toEqual({ what, status: response.status, allowed: true, inTime: true });
    if (response.status >= 400) expect(response.body).toEqual({ error: expect.any(String), ...(response.body?.details === undefined ? {} : { details: expect.any(String) }) });
    return response;
  }

  /** Registers, updates and executes as `attack` says, with the neighbour polling; returns the execute answers. */
  async function replay(attack: Attack): Promise<{ created?: string; executions: TestResponse[] }> {
    const executions: TestResponse[] = [];
    const body = actionBody(receiver.url(), attack.schema ? { json_schema: attack.schema } : { json_schema: { type: 'object' } });
    const registered = await attackerRequest(`${attack.name}: register`, attack.register ?? REGISTER_STATUSES, () => gateway(testApp, 'POST', '/actions', { token: attacker.jwt, body }));
    if (registered.status !== 201) return { executions };
    if (attack.schema) {
      // The same schema through PUT, onto the action that already has it: checked again, with the same bound.
      await attackerRequest(`${attack.name}: update`, [200, 400], () => gateway(testApp, 'PUT', `/actions/${body.name}`, { token: attacker.jwt, body: { json_schema: attack.schema } }));
    }
    if (attack.parameters === undefined && attack.executeBody === undefined) return { created: body.name, executions };
    answer = attack.answer ?? DEFAULT_ANSWER;
    const executeBody = attack.executeBody ?? JSON.stringify({ parameters: attack.parameters });
    for (let i = 0; i < (attack.executions ?? 1); i++) {
      executions.push(
        await attackerRequest(`${attack.name}: execute`, attack.execute ?? EXECUTE_STATUSES, () =>
          gateway(testApp, 'POST', `/actions/${body.name}/execute`, { token: attacker.jwt, raw: executeBody }),
        ),
      );
    }
    return { created: body.name, executions };
  }

  /** Runs `work` while the neighbour polls, then checks the neighbour was never held up nor refused. */
  async function whileNeighbourPolls<T>(work: () => Promise<T>): Promise<T> {
    const polling = new Neighbour(testApp, neighbour);
    try {
      return await work();
    } finally {
      const { statuses, longestBusyMs, longestGapMs } = await polling.stop();
      const heldUp = longestBusyMs >= NEIGHBOUR_CPU_BOUND_MS || longestGapMs >= NEIGHBOUR_WAIT_BOUND_MS;
      expect({ statuses: Object.keys(statuses), heldUp, longestBusyMs, longestGapMs }).toEqual({ statuses: ['200'], heldUp: false, longestBusyMs, longestGapMs });
    }
  }

  const forget = (name?: string) => (name ? gateway(testApp, 'DELETE', `/actions/${name}`, { token: attacker.jwt }) : undefined);

  it.each(ATTACKS.map((attack) => [attack.name, attack] as const))('%s: answered in time, and the neighbour is not held up', async (_name, attack) => {
    const outcome = await whileNeighbourPolls(() => replay(attack));
    await forget(outcome.created);
  });

  it('meta-schema $ids: ordinary schemas of both dialects still register and run afterwards, for everyone', async () => {
    for (const attack of ATTACKS.filter(({ name }) => name.startsWith('meta_schema_id'))) await forget((await replay(attack)).created);
    const ordinary = [
      { type: 'object', $defs: { city: { type: 'string', pattern: '^[A-Z]' } }, properties: { city: { $ref: '#/$defs/city' }, at: { type: 'string', format: 'date-time' }, unit: { enum: ['C', 'F'] } }, required: ['city'] },
      { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', definitions: { city: { type: 'string', pattern: '^[A-Z]' } }, properties: { city: { $ref: '#/definitions/city' } }, required: ['city'] },
    ];
    for (const json_schema of ordinary) {
      const created = await gateway(testApp, 'POST', '/actions', { token: neighbour.jwt, body: actionBody(receiver.url(), { json_schema }) });
      expect(created.status).toBe(201);
      const name = created.body.action.name;
      expect((await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: neighbour.jwt, body: { parameters: { city: 'Oslo', unit: 'C' } } })).status).toBe(200);
      expect((await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: neighbour.jwt, body: { parameters: { city: 'oslo' } } })).body).toEqual({
        error: 'Invalid parameters',
        details: `parameters.city: must match pattern "^[A-Z]"`,
      });
      await gateway(testApp, 'DELETE', `/actions/${name}`, { token: neighbour.jwt });
    }
  });

  it('inherited properties do not count as present, and catastrophic patterns are just checked', async () => {
    const byName = (name: string) => ATTACKS.find((attack) => attack.name === name) as Attack;
    const inherited = await replay(byName('own_properties'));
    expect(inherited.executions[0].body).toEqual({ error: 'Invalid parameters', details: "parameters: must have required property 'toString'" });
    const pattern = await replay(byName('pattern_backtracking'));
    expect(pattern.executions[0].body).toEqual({ error: 'Invalid parameters', details: 'parameters.a: must match pattern "^(a+)+$"' });
    const lookahead = await replay(byName('pattern_lookahead'));
    expect(lookahead.executions[0].body).toEqual({ error: 'Invalid parameters', details: 'parameters: could not be checked against the json_schema within 1500 ms' });
    const tooMany = await replay(byName('huge_enum'));
    expect(tooMany.executions).toEqual([]);
    await Promise.all([inherited, pattern, lookahead].map(({ created }) => forget(created)));
  });

  it('answers a receiver\'s whole result, stores and lists it cut to the documented limit', async () => {
    const large = await replay(ATTACKS.find(({ name }) => name === 'large_result') as Attack);
    for (const execution of large.executions) expect(execution.body.execution.result).toBe('x'.repeat(1_048_000));
    const listed = await gateway(testApp, 'GET', `/actions/${large.created}/executions?limit=100`, { token: attacker.jwt });
    expect(listed.status).toBe(200);
    expect(listed.body.executions).toHaveLength(10);
    for (const execution of listed.body.executions) expect(execution.result).toBe(`${'x'.repeat(MAX_STORED_TEXT)}${CUT_MARKER}`);
    expect(listed.text.length).toBeLessThan(100_000);

    const texts = await replay(ATTACKS.find(({ name }) => name === 'lone_surrogates') as Attack);
    const execution = texts.executions[0].body.execution;
    expect(execution).toMatchObject({ status: 'failed', result: '\uFFFDa\uFFFD', error: '\uFFFD' });
    expect((await gateway(testApp, 'GET', `/actions/${texts.created}/executions`, { token: attacker.jwt })).body).toEqual({ executions: [{ ...execution, replay_of: null }], next_cursor: null });
    const stored = await testApp.app.get(DataSource).query('SELECT result, error, attempt_log FROM executions WHERE id = $1', [execution.id]);
    expect(stored).toEqual([{ result: '\uFFFDa\uFFFD', error: '\uFFFD', attempt_log: [expect.objectContaining({ error: '\uFFFD' })] }]);
    await Promise.all([forget(large.created), forget(texts.created)]);
  });

  it('describes the costliest accepted schemas as tools, in every format, in time', async () => {
    const kept: string[] = [];
    for (const name of ['ref_amplification', 'ref_amplification_30kb', 'recursive_branching', 'deep_combinators', 'many_keywords', 'large_enum_const_required']) {
      const attack = ATTACKS.find((candidate) => candidate.name === name) as Attack;
      const created = await attackerRequest(`${name}: register`, attack.register ?? REGISTER_STATUSES, () =>
        gateway(testApp, 'POST', '/actions', { token: attacker.jwt, body: actionBody(receiver.url(), { json_schema: attack.schema }) }),
      );
      if (created.status === 201) kept.push(created.body.action.name);
    }
    expect(kept.length).toBeGreaterThan(3);
    await whileNeighbourPolls(async () => {
      for (const format of TOOL_FORMATS) {
        const listed = await attackerRequest(`tools (${format})`, [200], () => gateway(testApp, 'GET', `/tools?format=${format}`, { token: attacker.jwt }));
        expect(listed.text.length).toBeLessThan(5_000_000);
      }
    });
    await Promise.all(kept.map(forget));
  });

  it('answers random schemas built from the costly keywords, with random and hostile parameters, in time', async () => {
    const created = await gateway(testApp, 'POST', '/actions', { token: attacker.jwt, body: actionBody(receiver.url()) });
    const name = created.body.action.name as string;
    const pattern = fc.constantFrom('^(a+)+$', '^[a-z]*$', '(a|aa)+b', '^(?=a)(a|b)+$', '\\d+', '(.*a){8}', '^\\p{L}+$');
    const leaf = fc.oneof(
      fc.record({ type: fc.constantFrom('string', 'number', 'integer', 'boolean', 'array', 'object', 'null') }),
      fc.record({ type: fc.constant('string'), pattern }),
      fc.record({ format: fc.constantFrom('email', 'uri', 'url', 'date-time', 'hostname', 'ipv6', 'uuid', 'regex', 'uri-template') }),
      fc.record({ uniqueItems: fc.constant(true) }),
      fc.record({ enum: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 30 }) }),
      fc.record({ const: fc.jsonValue({ maxDepth: 3 }) }),
      fc.record({ required: fc.uniqueArray(fc.constantFrom('a', 'b', 'toString', 'constructor', '__proto__'), { maxLength: 4 }) }),
      fc.record({ minLength: fc.nat(5), maxLength: fc.nat(2000) }),
      fc.constant({ $ref: '#' }),
    );
    const { node } = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record({ allOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
        fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
        fc.record({ oneOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
        fc.record({ not: tie('node') }),
        fc.record({ properties: fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('node'), { maxKeys: 3 }) }),
        fc.record({ patternProperties: fc.dictionary(pattern, tie('node'), { maxKeys: 2 }) }),
        fc.record({ items: tie('node'), contains: tie('node') }, { requiredKeys: ['items'] }),
        fc.record({ additionalProperties: tie('node'), propertyNames: tie('node') }, { requiredKeys: [] }),
      ),
    }));
    const hostileText = fc.tuple(fc.constantFrom('a', 'ab', ':@', '1', 'a.', '-', '😀'), fc.integer({ min: 1, max: 60_000 }), fc.constantFrom('!', '', '\u0000')).map(([unit, times, end]) => `${unit.repeat(times)}${end}`);
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      hostileText,
      fc.integer({ min: 1, max: 20_000 }).map((length) => Array.from({ length }, (_, i) => [i % 50])),
      fc.integer({ min: 1, max: 100 }).map((depth) => Array.from({ length: depth }).reduce<unknown>((inner) => [inner], 'leaf')),
      fc.dictionary(fc.oneof(fc.string(), hostileText), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 20 }),
    );
    const statuses = new Map<number, number>();
    await whileNeighbourPolls(() =>
      fc.assert(
        fc.asyncProperty(node, node, value, value, async (a, b, first, second) => {
          const json_schema = { type: 'object', properties: { a, b } };
          const updated = await attackerRequest('random schema: update', [200, 400], () => gateway(testApp, 'PUT', `/actions/${name}`, { token: attacker.jwt, body: { json_schema } }));
          statuses.set(updated.status, (statuses.get(updated.status) ?? 0) + 1);
          if (updated.status !== 200) return;
          const executed = await attackerRequest('random schema: execute', EXECUTE_STATUSES, () =>
            gateway(testApp, 'POST', `/actions/${name}/execute`, { token: attacker.jwt, body: { parameters: { a: first, b: second } } }),
          );
          statuses.set(executed.status, (statuses.get(executed.status) ?? 0) + 1);
        }),
        { seed: 20261123, numRuns: 60, endOnFailure: true },
      ),
    );
    console.log('random schemas: answers by status', Object.fromEntries(statuses));
    // Both kinds of answer happened: the property did not pass by refusing everything.
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(400)).toBeGreaterThan(0);
    await forget(name);
  });
});
