import { createHash } from 'node:crypto';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Injectable, Logger, OnApplicationShutdown, Optional } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import type { ParameterCheck } from './schema-compilation';
import type { WorkerReply, WorkerRequest } from './schema-worker';
import { WorkerTime } from './worker-time';

type SandboxOutcome<T> =
  | { kind: 'answered'; reply: T }
  /** The job ran past the deadline: its worker was stopped. */
  | { kind: 'timed_out' }
  /** The worker died under the job (out of memory, say). */
  | { kind: 'failed' }
  /** The owner already has MAX_WAITING jobs waiting. */
  | { kind: 'busy' }
  /** The owner has spent its worker time for the last minute. */
  | { kind: 'exhausted'; retryAfterSeconds: number };

/**
 * How long one job may run in the worker: the largest schema allowed (2,000 values) compiles in 0.2–0.6 s here;
 * an answer within 2 s leaves room for the rest of the request.
 */
export const SANDBOX_DEADLINE_MS = 1_500;
/** Jobs one owner (a tenant) may have waiting besides the one running; more are refused at once rather than queued. */
export const MAX_WAITING = 4;
/**
 * Workers shared by every owner in good standing. An owner has at most one job running, so one owner, whatever it
 * sends, occupies at most one of them.
 */
export const SHARED_WORKERS = 2;
/**
 * A job that ran longer than this makes its owner a slow one for SLOW_OWNER_MS (a check of the largest parameters
 * the event loop would take runs in about 6 ms; compiling the largest schemas allowed takes 0.2–0.6 s).
 */
export const SLOW_JOB_MS = 100;
/** How long an owner stays slow after its last job that ran past SLOW_JOB_MS. */
const SLOW_OWNER_MS = 10 * 60_000;
/**
 * Shared workers that slow owners' jobs (and any job running past SLOW_JOB_MS) may occupy at once; slow owners take
 * turns on them. The others are kept for the owners whose jobs are quick: two tenants with checks of just under
 * the deadline could otherwise hold both, and every other tenant's check would wait for one of them to finish.
 */
export const SLOW_JOB_WORKERS = SHARED_WORKERS - 1;
/** Workers of their own for owners in quarantine (running at once; more such owners wait their turn for one). */
const OWN_WORKERS = 2;
/** How long an owner whose job hit the deadline (or killed its worker) stays off the shared workers. */
const QUARANTINE_MS = 10 * 60_000;
/** Each owner's worker time per minute when SCHEMA_WORKER_MS_PER_MINUTE is not set. */
const DEFAULT_WORKER_MS_PER_MINUTE = 10_000;
/** A worker of its own that has been idle this long is stopped (memory); the owner's next job starts another. */
const OWN_WORKER_IDLE_MS = 60_000;
/** Only schemas that compiled this fast are compiled again on a replacement shared worker, unasked. */
const REWARM_MAX_MS = 100;
/** The compiled schemas a worker keeps (schema-worker.ts), mirrored here to send an owner back to its own. */
const MAX_CACHED = 200;
/** The worker's own heap: a job that needs more dies alone, not the service. */
const WORKER_HEAP_MB = 128;
const START_TIMEOUT_MS = 30_000;
/** The owner of warm-up jobs (compiling again what a stopped shared worker held); no tenant id looks like it. */
const WARM_UP = '\0warm-up';

const WORKER_ENTRY = join(__dirname, `schema-worker${extname(__filename)}`);
// Loads the worker module; from TypeScript sources (under jest) it compiles them with swc first, as jest does.
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
const entryRequire = require('node:module').createRequire(workerData.entry);
if (workerData.entry.endsWith('.ts')) {
  const { transformSync } = entryRequire('@swc/core');
  const { readFileSync } = require('node:fs');
  require.extensions['.ts'] = (module, filename) => module._compile(transformSync(readFileSync(filename, 'utf8'), {
    filename, module: { type: 'commonjs' }, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
  }).code, filename);
}
entryRequire(workerData.entry);
`;

/** Owners marked for a while: each mark lasts `ms` from the last time it was made. */
class OwnerMarks {
  private readonly until = new Map<string, number>();

  constructor(private readonly ms: number) {}

  has(owner: string): boolean {
    const until = this.until.get(owner);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.until.delete(owner);
    return false;
  }

  /** Marks `owner` (again); whether it was marked already. */
  mark(owner: string): boolean {
    const had = this.has(owner);
    this.until.set(owner, Date.now() + this.ms);
    // The map is swept as owners are looked up; an owner that never comes back is removed here at the latest.
    if (this.until.size > 10_000) for (const known of [...this.until.keys()]) this.has(known);
    return had;
  }
}

/** A tenant's compiled schemas are its own, even when another tenant's schema is the same text. */
const cacheKey = (owner: string, key: string) => `${owner}\n${key}`;
const ownerOf = (workerKey: string) => workerKey.slice(0, workerKey.indexOf('\n'));

/** What identifies a schema's compilation: a hash of its JSON text. */
export function schemaKey(schema: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(schema)).digest('base64url');
}

type Job = { owner: string; request: WorkerRequest; settle: (outcome: SandboxOutcome<WorkerReply>) => void; timer?: NodeJS.Timeout; startedAt?: number };

/** One worker thread: shared, or an owner's own. */
interface Slot {
  worker: Worker;
  lane: 'shared' | 'own';
  /** The owner of an own worker. */
  owner?: string;
  ready: boolean;
  running?: Job;
  /** What this worker has compiled, as its own cache holds it (least recently used first), with compile times. */
  compiled: Map<string, { schema: Record<string, unknown>; ms: number }>;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Runs what has no bound the service can compute in advance (recursive schemas, large ones, patterns only
 * ECMAScript's backtracking engine can run, large parameters) in worker threads, each job under
 * SANDBOX_DEADLINE_MS: past it the worker is terminated, which stops even a regular expression mid-match. The
 * event loop only posts and receives messages. What one owner (a tenant) sends cannot hold up another's checks
 * (docs/decisions.md, "Bounded cost"):
 * - an owner has at most one job running, and at most MAX_WAITING more waiting (then `busy`, a 429); owners with
 *   jobs waiting take turns;
 * - SHARED_WORKERS workers serve the owners in good standing; a job goes to the worker that compiled its schema
 *   when that one is free;
 * - an owner whose job ran past SLOW_JOB_MS is slow for SLOW_OWNER_MS: slow owners' jobs, and any job running past
 *   SLOW_JOB_MS, occupy at most SLOW_JOB_WORKERS of the shared workers at once (slow owners take turns there), so
 *   the rest stay free for the quick checks of everyone else, whose wait is then at most a quick job's;
 * - an owner whose job ran past the deadline (or killed its worker) is quarantined for QUARANTINE_MS: its jobs
 *   run on a worker of its own (at most OWN_WORKERS at once), which is what the next
 *   deadline stops, so no shared worker, with every other tenant's compiled schemas, is stopped for it again;
 *   what the stopped shared worker had compiled for others is compiled again on its replacement, unasked;
 * - an owner has a budget of worker time per minute (SCHEMA_WORKER_MS_PER_MINUTE); once spent, its jobs are
 *   refused (`exhausted`, a 429 with Retry-After) until enough of it is a minute old.
 */
@Injectable()
export class SchemaSandbox implements OnApplicationShutdown {
  private readonly logger = new Logger('SchemaSandbox');
  private readonly shared: Slot[] = [];
  private readonly own = new Map<string, Slot>();
  private readonly waiting = new Map<string, Job[]>();
  /** Owners with jobs waiting and none running, in the order they get their next turn. */
  private readonly turns: string[] = [];
  private readonly running = new Set<string>();
  private readonly quarantined = new OwnerMarks(QUARANTINE_MS);
  private readonly slow = new OwnerMarks(SLOW_OWNER_MS);
  private readonly spent: WorkerTime;
  /** Compilations a stopped shared worker held for other owners, to be made again when a shared worker is idle. */
  private readonly warmUps = new Map<string, Record<string, unknown>>();
  private nextId = 1;
  private closed = false;
  /** The module each worker runs (schema-worker.ts; a stand-in in the tests of the scheduling). */
  protected readonly workerEntry: string = WORKER_ENTRY;

  constructor(@Optional() config?: AppConfig) {
    this.spent = new WorkerTime(config?.schemaWorkerMsPerMinute ?? DEFAULT_WORKER_MS_PER_MINUTE);
  }

  /**
   * Compiles `schema` (identified by `key`, its content: schemaKey) for `owner`; the worker keeps it for the checks
   * that follow.
   */
  async compile(owner: string, key: string, schema: Record<string, unknown>): Promise<SandboxOutcome<{ problem?: string }>> {
    const outcome = await this.submit(owner, { id: this.nextId++, kind: 'compile', key: cacheKey(owner, key), schema });
    return outcome.kind === 'answered' && outcome.reply.kind === 'compiled' ? { kind: 'answered', reply: { problem: outcome.reply.problem } } : (outcome as SandboxOutcome<never>);
  }

  async validate(owner: string, key: string, schema: Record<string, unknown>, parameters: unknown): Promise<SandboxOutcome<ParameterCheck>> {
    const outcome = await this.submit(owner, { id: this.nextId++, kind: 'validate', key: cacheKey(owner, key), schema, parameters });
    return outcome.kind === 'answered' && outcome.reply.kind === 'checked' ? { kind: 'answered', reply: outcome.reply.check } : (outcome as SandboxOutcome<never>);
  }

  /** Whether `owner`'s jobs run on a worker of its own (its job hit the deadline within QUARANTINE_MS). */
  isQuarantined(owner: string): boolean {
    return this.quarantined.has(owner);
  }

  /** Whether `owner`'s jobs take turns on SLOW_JOB_WORKERS (its job ran past SLOW_JOB_MS within SLOW_OWNER_MS). */
  isSlow(owner: string): boolean {
    return this.slow.has(owner);
  }

  /** Warm-up compilations queued or running (what a stopped shared worker held for others). */
  get pendingWarmUps(): number {
    return this.warmUps.size + this.shared.filter((slot) => slot.running?.owner === WARM_UP).length;
  }

  /** How many worker threads run now (shared, own), and how many of the shared ones have started (ready). */
  get workers(): { shared: number; own: number; ready: number } {
    return { shared: this.shared.length, own: this.own.size, ready: this.shared.filter((slot) => slot.ready).length };
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    this.failWaiting();
    const slots = [...this.shared, ...this.own.values()];
    this.shared.length = 0;
    this.own.clear();
    for (const slot of slots) {
      clearTimeout(slot.idleTimer);
      if (slot.running) this.settle(slot.running, { kind: 'failed' });
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private submit(owner: string, request: WorkerRequest): Promise<SandboxOutcome<WorkerReply>> {
    if (this.closed) return Promise.resolve({ kind: 'failed' });
    const retryAfterSeconds = this.spent.retryAfterSeconds(owner);
    if (retryAfterSeconds > 0) return Promise.resolve({ kind: 'exhausted', retryAfterSeconds });
    const jobs = this.waiting.get(owner) ?? [];
    if (jobs.length >= MAX_WAITING) return Promise.resolve({ kind: 'busy' });
    return new Promise((settle) => {
      jobs.push({ owner, request, settle });
      if (jobs.length === 1) {
        this.waiting.set(owner, jobs);
        if (!this.running.has(owner)) this.turns.push(owner);
      }
      this.pump();
    });
  }

  /** Starts every job that can start: each owner in turn, on a shared worker or on its own. */
  private pump(): void {
    if (this.closed) return;
    const passed: string[] = [];
    let sharedBusy = false;
    let slowRunning = this.shared.filter((slot) => slot.running && this.isSlowJob(slot.running)).length;
    for (const owner of this.turns.splice(0)) {
      // Jobs that waited while their owner's time ran out are refused as a new one would be.
      const retryAfterSeconds = this.spent.retryAfterSeconds(owner);
      if (retryAfterSeconds > 0) {
        for (const job of this.waiting.get(owner) as Job[]) this.settle(job, { kind: 'exhausted', retryAfterSeconds });
        this.waiting.delete(owner);
        continue;
      }
      const quarantined = this.isQuarantined(owner);
      const slow = !quarantined && this.isSlow(owner);
      if (slow && slowRunning >= SLOW_JOB_WORKERS) {
        passed.push(owner);
        continue;
      }
      const job = (this.waiting.get(owner) as Job[])[0];
      const slot = quarantined ? this.ownSlot(owner) : sharedBusy ? undefined : this.sharedSlot(job.request.key);
      if (!slot?.ready) {
        if (!slot && !quarantined) sharedBusy = true;
        passed.push(owner);
        continue;
      }
      this.start(owner, slot);
      if (slow) slowRunning++;
    }
    this.turns.push(...passed);
    if (!sharedBusy) this.warmUp();
    for (const slot of [...this.shared, ...this.own.values()]) {
      // An idle worker must not keep the process alive (the command line, the bench's baseline); a busy one must.
      if (slot.running) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  /** A slow owner's job, or one that has run past SLOW_JOB_MS by now (its owner's first slow one). */
  private isSlowJob(job: Job): boolean {
    return job.owner !== WARM_UP && (this.isSlow(job.owner) || performance.now() - (job.startedAt ?? Infinity) > SLOW_JOB_MS);
  }

  /**
   * A free shared worker for a job on `key`: the one that compiled it; else the ready one with the fewest
   * compiled schemas (a schema new to the workers is the likeliest to run away, and then that worker's are lost);
   * else one still starting. The shared workers are started together, at the first job and after one is stopped,
   * so that a job never waits for a worker to start while another runs away.
   */
  private sharedSlot(key: string): Slot | undefined {
    while (this.shared.length < SHARED_WORKERS) this.shared.push(this.startWorker('shared'));
    const free = this.shared.filter((slot) => !slot.running);
    const ready = free.filter((slot) => slot.ready);
    const fewest = ready.reduce<Slot | undefined>((best, slot) => (best && best.compiled.size <= slot.compiled.size ? best : slot), undefined);
    return ready.find((slot) => slot.compiled.has(key)) ?? fewest ?? free[0];
  }

  /** The quarantined owner's own worker: its existing one, a new one if there is room, or none yet. */
  private ownSlot(owner: string): Slot | undefined {
    const existing = this.own.get(owner);
    if (existing) return existing.running ? undefined : existing;
    if (this.own.size >= OWN_WORKERS) {
      // An idle one of another owner makes room; one that is running keeps its place.
      const idle = [...this.own.values()].find((slot) => !slot.running);
      if (!idle) return undefined;
      this.stopOwn(idle);
    }
    const slot = this.startWorker('own', owner);
    this.own.set(owner, slot);
    return slot;
  }

  private start(owner: string, slot: Slot): void {
    const jobs = this.waiting.get(owner) as Job[];
    const job = jobs.shift() as Job;
    if (jobs.length === 0) this.waiting.delete(owner);
    this.running.add(owner);
    this.run(slot, job);
  }

  private run(slot: Slot, job: Job): void {
    clearTimeout(slot.idleTimer);
    slot.running = job;
    job.startedAt = performance.now();
    job.timer = setTimeout(() => this.stopRunaway(slot, job), SANDBOX_DEADLINE_MS);
    slot.worker.postMessage(job.request);
  }

  /** On an idle shared worker, with nobody waiting for it: compile again what a stopped one held for others. */
  private warmUp(): void {
    for (const [key, schema] of this.warmUps) {
      const slot = this.shared.find((candidate) => candidate.ready && !candidate.running);
      if (!slot) return;
      this.warmUps.delete(key);
      if (slot.compiled.has(key) || this.isQuarantined(ownerOf(key))) continue;
      this.run(slot, { owner: WARM_UP, request: { id: this.nextId++, kind: 'compile', key, schema }, settle: () => undefined });
    }
  }

  private startWorker(lane: Slot['lane'], owner?: string): Slot {
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { entry: this.workerEntry },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      stdout: false,
      stderr: false,
    });
    const slot: Slot = { worker, lane, owner, ready: false, compiled: new Map() };
    const startTimer = setTimeout(() => void worker.terminate(), START_TIMEOUT_MS).unref();
    worker.on('message', (reply: WorkerReply) => {
      if (!this.holds(slot)) return;
      if (reply.kind === 'ready') {
        clearTimeout(startTimer);
        slot.ready = true;
      } else if (slot.running && reply.id === slot.running.request.id) {
        this.finish(slot, { kind: 'answered', reply }, reply.ms);
      }
      this.pump();
    });
    worker.on('error', (error) => this.logger.warn({ err: error }, 'schema worker failed'));
    worker.on('exit', () => {
      clearTimeout(startTimer);
      if (!this.holds(slot)) return;
      this.remove(slot);
      const job = slot.running;
      if (job) {
        this.finish(slot, { kind: 'failed' }, performance.now() - (job.startedAt ?? 0));
        this.quarantine(job.owner, 'its job made its worker fail');
      }
      // A worker that cannot even start would be restarted forever: fail what waits instead.
      if (!slot.ready) this.failWaiting();
      this.pump();
    });
    return slot;
  }

  /** A job's answer (or failure): its owner's time is charged, and its next job, if any, takes its turn. */
  private finish(slot: Slot, outcome: SandboxOutcome<WorkerReply>, ranMs: number): void {
    const job = slot.running as Job;
    clearTimeout(job.timer);
    slot.running = undefined;
    if (job.owner !== WARM_UP) {
      this.running.delete(job.owner);
      this.spent.charge(job.owner, ranMs);
      if (ranMs > SLOW_JOB_MS) this.slow.mark(job.owner);
      if (this.waiting.has(job.owner)) this.turns.push(job.owner);
    }
    if (outcome.kind === 'answered') this.remember(slot, job.request, ranMs);
    if (slot.lane === 'own' && !this.waiting.has(slot.owner as string)) {
      slot.idleTimer = setTimeout(() => this.holds(slot) && !slot.running && this.stopOwn(slot), OWN_WORKER_IDLE_MS).unref();
    }
    this.settle(job, outcome);
  }

  /** Mirrors the worker's cache of compiled schemas (schema-worker.ts: least recently used first out). */
  private remember(slot: Slot, request: WorkerRequest, ms: number): void {
    const known = slot.compiled.get(request.key);
    slot.compiled.delete(request.key);
    slot.compiled.set(request.key, known ?? { schema: request.schema, ms });
    if (slot.compiled.size > MAX_CACHED) slot.compiled.delete(slot.compiled.keys().next().value as string);
  }

  /** Past the deadline: terminating the worker is the one way to stop JavaScript (or a RegExp) mid-run. */
  private stopRunaway(slot: Slot, job: Job): void {
    if (slot.running !== job || !this.holds(slot)) return;
    this.remove(slot);
    void slot.worker.terminate();
    this.finish(slot, { kind: 'timed_out' }, SANDBOX_DEADLINE_MS);
    if (job.owner !== WARM_UP) this.quarantine(job.owner, `its check ran past ${SANDBOX_DEADLINE_MS} ms`);
    if (slot.lane === 'shared') {
      // What it held for the others is compiled again on its replacement before they need it, if it was quick.
      for (const [key, { schema, ms }] of slot.compiled) {
        if (ownerOf(key) !== job.owner && ms <= REWARM_MAX_MS) this.warmUps.set(key, schema);
      }
      if (this.warmUps.size > 0) this.sharedSlot('');
    }
    this.pump();
  }

  private quarantine(owner: string, reason: string): void {
    if (owner === WARM_UP) return;
    if (!this.quarantined.mark(owner)) {
      this.logger.warn({ tenantId: owner }, `schema checks of this tenant run on a worker of their own for ${QUARANTINE_MS / 60_000} minutes: ${reason}`);
    }
  }

  private stopOwn(slot: Slot): void {
    this.remove(slot);
    void slot.worker.terminate();
  }

  private holds(slot: Slot): boolean {
    return slot.lane === 'shared' ? this.shared.includes(slot) : this.own.get(slot.owner as string) === slot;
  }

  private remove(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    if (slot.lane === 'shared') this.shared.splice(this.shared.indexOf(slot), 1);
    else this.own.delete(slot.owner as string);
  }

  private settle(job: Job, outcome: SandboxOutcome<WorkerReply>): void {
    clearTimeout(job.timer);
    job.settle(outcome);
  }

  private failWaiting(): void {
    for (const jobs of this.waiting.values()) for (const job of jobs) job.settle({ kind: 'failed' });
    this.waiting.clear();
    this.turns.length = 0;
  }
}
