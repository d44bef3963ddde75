import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { MAX_WAITING, SANDBOX_DEADLINE_MS, SchemaSandbox, SHARED_WORKERS, SLOW_JOB_MS } from './schema-sandbox';

describe('SchemaSandbox', () => {
  let sandbox: SchemaSandbox;
  let warn: jest.SpyInstance;
  beforeEach(() => {
    sandbox = new SchemaSandbox();
    // A runaway job's owner is quarantined with a warning: captured here, and nothing else may be warned.
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    await sandbox.onApplicationShutdown();
    const warnings = warn.mock.calls.map(([, message]) => message as string);
    warn.mockRestore();
    expect(warnings.filter((message) => !QUARANTINED.test(message))).toEqual([]);
  });
  const QUARANTINED = /^schema checks of this tenant run on a worker of their own for 10 minutes: its check ran past \d+ ms$/;

  const objectSchema = { type: 'object' };
  const requiresX = { type: 'object', required: ['x'] };
  // ECMAScript's backtracking engine (RE2 cannot run a lookahead) on 40 `a`s and a `!`: hours, unless stopped.
  const runaway = { type: 'object', properties: { a: { pattern: '^(?=a)(a+)+$' } } };
  const runawayParameters = { a: `${'a'.repeat(40)}!` };

  it('compiles and checks in the worker', async () => {
    expect(await sandbox.compile('t', 'k@0', { properties: { a: { minimum: 'one' } } })).toEqual({
      kind: 'answered',
      reply: { problem: 'is not a valid JSON Schema: schema is invalid: data/properties/a/minimum must be number' },
    });
    expect(await sandbox.validate('t', 'k@1', { type: 'object', required: ['a'] }, {})).toEqual({
      kind: 'answered',
      reply: { valid: false, errors: [{ instancePath: '', message: "must have required property 'a'" }] },
    });
  });

  it('keeps what a registration compiled for the owner\'s checks, not for another owner', async () => {
    expect(await sandbox.compile('a', 'same', requiresX)).toEqual({ kind: 'answered', reply: {} });
    // Under the same key the compiled schema is used (the schema sent along is only for a worker that lost it).
    expect(await sandbox.validate('a', 'same', objectSchema, {})).toMatchObject({ kind: 'answered', reply: { valid: false } });
    expect(await sandbox.validate('b', 'same', objectSchema, {})).toEqual({ kind: 'answered', reply: { valid: true } });
  });

  it('stops a job at the deadline, and the owner\'s next job runs on a worker of its own', async () => {
    await sandbox.validate('t', 'warm', objectSchema, {});
    const started = performance.now();
    expect(await sandbox.validate('t', 'runaway@1', runaway, runawayParameters)).toEqual({ kind: 'timed_out' });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(SANDBOX_DEADLINE_MS - 5);
    expect(elapsed).toBeLessThan(SANDBOX_DEADLINE_MS + 5_000);
    expect(sandbox.isQuarantined('t')).toBe(true);
    expect(warn.mock.calls).toEqual([[{ tenantId: 't' }, expect.stringMatching(QUARANTINED)]]);
    expect(await sandbox.validate('t', 'k@2', objectSchema, {})).toEqual({ kind: 'answered', reply: { valid: true } });
    expect(sandbox.workers.own).toBe(1);
    expect(sandbox.isQuarantined('other')).toBe(false);
  });

  it('does not hold up another owner behind one owner\'s runaway job: each has one job running at most', async () => {
    // Two owners at once: both shared workers start (under jest a start compiles the worker's TypeScript first).
    await Promise.all([sandbox.validate('b', 'warm', objectSchema, {}), sandbox.validate('c', 'warm', objectSchema, {})]);
    expect(sandbox.workers.shared).toBe(SHARED_WORKERS);
    const finished: string[] = [];
    const attack = sandbox.validate('a', 'runaway', runaway, runawayParameters).then((outcome) => finished.push(`a:${outcome.kind}`));
    const check = sandbox.validate('b', 'warm', objectSchema, {}).then((outcome) => finished.push(`b:${outcome.kind}`));
    await Promise.all([attack, check]);
    // Answered on the other shared worker while the runaway still ran on the first.
    expect(finished).toEqual(['b:answered', 'a:timed_out']);
  });

  it('costs no other owner its compiled schemas: a quarantined owner\'s deadlines stop only its own worker', async () => {
    expect(await sandbox.validate('a', 'runaway', runaway, runawayParameters)).toEqual({ kind: 'timed_out' });
    expect(await sandbox.compile('b', 'kept', requiresX)).toEqual({ kind: 'answered', reply: {} });
    for (let i = 0; i < 2; i++) expect(await sandbox.validate('a', 'runaway', runaway, runawayParameters)).toEqual({ kind: 'timed_out' });
    // Still the compilation of requiresX (a new one, of the schema sent along, would accept {}).
    expect(await sandbox.validate('b', 'kept', objectSchema, {})).toMatchObject({ kind: 'answered', reply: { valid: false } });
  });

  it('compiles again, unasked, what a shared worker stopped at its first deadline held for the others', async () => {
    // One shared worker so far: b's compilation and a's first runaway meet on it.
    expect(await sandbox.compile('b', 'kept', requiresX)).toEqual({ kind: 'answered', reply: {} });
    expect(await sandbox.validate('a', 'runaway', runaway, runawayParameters)).toEqual({ kind: 'timed_out' });
    while (sandbox.pendingWarmUps > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await sandbox.validate('b', 'kept', objectSchema, {})).toMatchObject({ kind: 'answered', reply: { valid: false } });
  });

  it('refuses an owner that has spent its worker time for the minute, with the seconds to wait, and no other owner', async () => {
    const budgeted = new SchemaSandbox({ schemaWorkerMsPerMinute: SANDBOX_DEADLINE_MS } as AppConfig);
    try {
      expect(await budgeted.validate('a', 'runaway', runaway, runawayParameters)).toEqual({ kind: 'timed_out' });
      const refused = await budgeted.validate('a', 'k', objectSchema, {});
      expect(refused).toEqual({ kind: 'exhausted', retryAfterSeconds: expect.any(Number) });
      expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(58);
      expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(60);
      expect(await budgeted.validate('b', 'k', objectSchema, {})).toEqual({ kind: 'answered', reply: { valid: true } });
    } finally {
      await budgeted.onApplicationShutdown();
    }
  });

  it('runs its workers at the process\'s own priority', async () => {
    // A lowered one let the event loop wait seconds on locks a starved worker held, on a busy host (decisions.md).
    await Promise.all([sandbox.validate('b', 'warm', objectSchema, {}), sandbox.validate('c', 'warm', objectSchema, {})]);
    while (sandbox.workers.ready < SHARED_WORKERS) await new Promise((resolve) => setTimeout(resolve, 10));
    // The nice value, field 19 of each thread's stat (17th after the command's name), on Linux.
    const nice = (thread: string) => readFileSync(`/proc/self/task/${thread}/stat`, 'utf8').split(') ')[1].split(' ')[16];
    const threads = process.platform === 'linux' ? readdirSync('/proc/self/task') : [];
    expect(new Set(threads.map(nice))).toEqual(new Set(process.platform === 'linux' ? [nice(String(process.pid))] : []));
  });

  it('answers every job once shut down', async () => {
    const pending = sandbox.validate('t', 'k', objectSchema, {});
    await sandbox.onApplicationShutdown();
    expect(await pending).toEqual({ kind: 'failed' });
    expect(await sandbox.compile('t', 'k', objectSchema)).toEqual({ kind: 'failed' });
  });
});

describe('SchemaSandbox: how slow owners share the workers', () => {
  /** Workers whose jobs hold their thread for the `sleep_ms` asked, and say when they ran (test/support). */
  class StubbedSandbox extends SchemaSandbox {
    protected override readonly workerEntry = join(__dirname, '../../../test/support/stub-schema-worker.ts');
  }
  type Ran = { label: string; started: number; ended: number };

  /** Holds the jobs given it on their workers until released (before SANDBOX_DEADLINE_MS), and counts those started. */
  class Hold {
    private readonly shared = new Int32Array(new SharedArrayBuffer(8));
    readonly buffer = this.shared.buffer;

    get started(): number {
      return Atomics.load(this.shared, 1);
    }

    release(): void {
      Atomics.store(this.shared, 0, 1);
      Atomics.notify(this.shared, 0);
    }
  }

  let sandbox: StubbedSandbox;
  let finished: Ran[];
  /** `owner`'s job `label`, holding a worker `sleepMs` or until `run` is released; once answered, it is in `finished` with when it ran. */
  const job = async (owner: string, label: string, run: number | Hold): Promise<Ran> => {
    const outcome = await sandbox.validate(owner, label, {}, typeof run === 'number' ? { sleep_ms: run } : { hold: run.buffer });
    if (outcome.kind !== 'answered' || outcome.reply.valid || !('problem' in outcome.reply)) throw new Error(`${label}: ${JSON.stringify(outcome)}`);
    const ran = { label, ...(JSON.parse(outcome.reply.problem) as { started: number; ended: number }) };
    finished.push(ran);
    return ran;
  };
  const labels = () => finished.map(({ label }) => label);
  /** Waits until `done`, for at most a second (well within the deadline of a held job). */
  const waitFor = async (done: () => boolean) => {
    for (const until = performance.now() + 1_000; !done() && performance.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const slow = SLOW_JOB_MS * 3;

  beforeEach(async () => {
    sandbox = new StubbedSandbox();
    finished = [];
    // Both shared workers started and ready before the scheduling is watched.
    await Promise.all([job('x', 'warm', 0), job('y', 'warm', 0)]);
    while (sandbox.workers.ready < SHARED_WORKERS) await new Promise((resolve) => setTimeout(resolve, 10));
    finished = [];
  });
  afterEach(() => sandbox.onApplicationShutdown());

  it('keeps a worker for quick checks: a third owner is served before the second of two slow owners, which take turns', async () => {
    // a and b each ran a job past SLOW_JOB_MS (at once, on both workers: nothing told them apart yet).
    await Promise.all([job('a', 'a1', slow), job('b', 'b1', slow)]);
    expect([sandbox.isSlow('a'), sandbox.isSlow('b'), sandbox.isSlow('c')]).toEqual([true, true, false]);
    finished = [];

    // Their next jobs come first, c's quick check last; a's holds the one worker slow owners may use.
    const hold = new Hold();
    const jobs = Promise.all([job('a', 'a2', hold), job('b', 'b2', 0), job('c', 'c1', 0)]);
    await waitFor(() => finished.length > 0);
    hold.release();
    const [a2, b2] = await jobs;
    // c had the other worker while a's job ran; b's job waited for a's to end, not c for either.
    expect(labels()).toEqual(['c1', 'a2', 'b2']);
    expect(b2.started).toBeGreaterThanOrEqual(a2.ended);
  });

  it('counts a job running past SLOW_JOB_MS as slow before it ends: a slow owner waits for it, a quick one does not', async () => {
    await job('a', 'a1', slow);
    expect(sandbox.isSlow('a')).toBe(true);
    finished = [];

    // n's first job runs long; nothing said so when it started.
    const hold = new Hold();
    const n1 = job('n', 'n1', hold);
    await new Promise((resolve) => setTimeout(resolve, SLOW_JOB_MS * 2));
    const a2 = job('a', 'a2', 0);
    await job('c', 'c1', 0);
    hold.release();
    const [ranN1, ranA2] = await Promise.all([n1, a2]);
    expect(labels()).toEqual(['c1', 'n1', 'a2']);
    expect(ranA2.started).toBeGreaterThanOrEqual(ranN1.ended);
    expect(sandbox.isSlow('n')).toBe(true);
  });

  it('lets owners take turns, and refuses an owner more than MAX_WAITING waiting jobs', async () => {
    // z holds one worker until released, so the jobs below share the other one at a time: the order they end in
    // is the order of their turns, whatever the machine's load.
    const hold = new Hold();
    const held = job('z', 'held', hold);
    const jobs = [job('a', 'a1', 0), ...Array.from({ length: MAX_WAITING }, (_, i) => job('a', `a${i + 2}`, 0))];
    expect(await sandbox.validate('a', 'refused', {}, { sleep_ms: 0 })).toEqual({ kind: 'busy' });
    jobs.push(job('b', 'b1', 0));
    await Promise.all(jobs);
    hold.release();
    await held;
    // b's one job is not queued behind all of a's: it has the turn after a's running one.
    expect(labels()).toEqual(['a1', 'b1', 'a2', 'a3', 'a4', 'a5', 'held']);
  });

  it('lets quick owners use every worker: two quick jobs run at once beside no slow one', async () => {
    const hold = new Hold();
    const jobs = Promise.all([job('x', 'x1', hold), job('y', 'y1', hold)]);
    // Both held at once, on both workers: neither waited for the other to end.
    await waitFor(() => hold.started === 2);
    const started = hold.started;
    hold.release();
    await jobs;
    expect(started).toBe(2);
  });
});
