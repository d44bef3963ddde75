import { AppConfig } from '../../config/app-config';
import { MAX_WAITING, SANDBOX_DEADLINE_MS, SchemaSandbox, SHARED_WORKERS } from './schema-sandbox';

describe('SchemaSandbox', () => {
  let sandbox: SchemaSandbox;
  beforeEach(() => {
    sandbox = new SchemaSandbox();
  });
  afterEach(() => sandbox.onApplicationShutdown());

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

  it('lets owners take turns, and refuses an owner more than MAX_WAITING waiting jobs', async () => {
    await sandbox.validate('warm', 'warm', objectSchema, {});
    const finished: string[] = [];
    const job = (owner: string, label: string) => sandbox.validate(owner, label, objectSchema, {}).then((outcome) => finished.push(`${label}:${outcome.kind}`));
    const jobs = [job('a', 'a1'), ...Array.from({ length: MAX_WAITING }, (_, i) => job('a', `a${i + 2}`)), job('a', 'refused'), job('b', 'b1')];
    await Promise.all(jobs);
    expect(finished[0]).toBe('refused:busy');
    expect(finished.filter((label) => label.startsWith('a'))).toEqual(['a1:answered', 'a2:answered', 'a3:answered', 'a4:answered', 'a5:answered']);
    // b's one job is not queued behind all of a's: it has the next turn (on the second worker, while that one is
    // still starting, a's next job may finish on the first meanwhile).
    expect(finished.indexOf('b1:answered')).toBeLessThan(finished.indexOf('a5:answered'));
  });

  it('answers every job once shut down', async () => {
    const pending = sandbox.validate('t', 'k', objectSchema, {});
    await sandbox.onApplicationShutdown();
    expect(await pending).toEqual({ kind: 'failed' });
    expect(await sandbox.compile('t', 'k', objectSchema)).toEqual({ kind: 'failed' });
  });
});
