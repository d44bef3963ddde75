import { MAX_WAITING, SANDBOX_DEADLINE_MS, SchemaSandbox } from './schema-sandbox';

describe('SchemaSandbox', () => {
  let sandbox: SchemaSandbox;
  beforeEach(() => {
    sandbox = new SchemaSandbox();
  });
  afterEach(() => sandbox.onApplicationShutdown());

  const objectSchema = { type: 'object' };
  // ECMAScript's backtracking engine (RE2 cannot run a lookahead) on 40 `a`s and a `!`: hours, unless stopped.
  const runaway = { type: 'object', properties: { a: { pattern: '^(?=a)(a+)+$' } } };

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
    expect(await sandbox.compile('a', 'same', { type: 'object', required: ['x'] })).toEqual({ kind: 'answered', reply: {} });
    // Under the same key the compiled schema is used (the schema sent along is only for a worker that lost it).
    expect(await sandbox.validate('a', 'same', objectSchema, {})).toMatchObject({ kind: 'answered', reply: { valid: false } });
    expect(await sandbox.validate('b', 'same', objectSchema, {})).toEqual({ kind: 'answered', reply: { valid: true } });
  });

  it('stops a job at the deadline, and a new worker serves the next one', async () => {
    await sandbox.validate('t', 'warm', objectSchema, {});
    const started = performance.now();
    expect(await sandbox.validate('t', 'runaway@1', runaway, { a: `${'a'.repeat(40)}!` })).toEqual({ kind: 'timed_out' });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(SANDBOX_DEADLINE_MS - 5);
    expect(elapsed).toBeLessThan(SANDBOX_DEADLINE_MS + 5_000);
    expect(await sandbox.validate('t', 'k@2', objectSchema, {})).toEqual({ kind: 'answered', reply: { valid: true } });
  });

  it('lets owners take turns, and refuses an owner more than MAX_WAITING waiting jobs', async () => {
    await sandbox.validate('warm', 'warm', objectSchema, {});
    const finished: string[] = [];
    const job = (owner: string, label: string) => sandbox.validate(owner, label, objectSchema, {}).then((outcome) => finished.push(`${label}:${outcome.kind}`));
    const jobs = [job('a', 'a1'), ...Array.from({ length: MAX_WAITING }, (_, i) => job('a', `a${i + 2}`)), job('a', 'refused'), job('b', 'b1')];
    await Promise.all(jobs);
    expect(finished[0]).toBe('refused:busy');
    expect(finished.slice(1)).toEqual(['a1:answered', 'a2:answered', 'b1:answered', 'a3:answered', 'a4:answered', 'a5:answered']);
  });

  it('answers every job once shut down', async () => {
    const pending = sandbox.validate('t', 'k', objectSchema, {});
    await sandbox.onApplicationShutdown();
    expect(await pending).toEqual({ kind: 'failed' });
    expect(await sandbox.compile('t', 'k', objectSchema)).toEqual({ kind: 'failed' });
  });
});
