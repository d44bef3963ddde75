import { createHash } from 'node:crypto';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { ParameterCheck } from './schema-compilation';
import type { WorkerReply, WorkerRequest } from './schema-worker';

export type SandboxOutcome<T> =
  | { kind: 'answered'; reply: T }
  /** The job ran past the deadline: the worker was stopped (and is replaced for the next job). */
  | { kind: 'timed_out' }
  /** The worker died under the job (out of memory, say). */
  | { kind: 'failed' }
  /** The owner already has MAX_WAITING jobs waiting. */
  | { kind: 'busy' };

/**
 * How long one job may run in the worker: the largest schema allowed (2,000 values) compiles in 0.2–0.6 s here;
 * an answer within 2 s leaves room for the rest of the request.
 */
export const SANDBOX_DEADLINE_MS = 1_500;
/** Jobs one owner (a tenant) may have waiting; more are refused at once rather than queued. */
export const MAX_WAITING = 4;
/** The worker's own heap: a job that needs more dies alone, not the service. */
const WORKER_HEAP_MB = 128;
const START_TIMEOUT_MS = 30_000;

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

/** A tenant's compiled schemas are its own, even when another tenant's schema is the same text. */
const cacheKey = (owner: string, key: string) => `${owner}\n${key}`;

/** What identifies a schema's compilation: a hash of its JSON text. */
export function schemaKey(schema: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(schema)).digest('base64url');
}

type Job = { owner: string; request: WorkerRequest; settle: (outcome: SandboxOutcome<WorkerReply>) => void; timer?: NodeJS.Timeout };

/**
 * Runs what has no bound the service can compute in advance (recursive schemas, large ones, patterns only
 * ECMAScript's backtracking engine can run, large parameters) in one worker thread, one job at a time, each under
 * SANDBOX_DEADLINE_MS: past it the worker is terminated, which stops even a regular expression mid-match. The
 * event loop only posts and receives messages. Owners take turns (round robin), so one tenant's queue delays
 * another's job by at most one job per tenant waiting, and an owner may not have more than MAX_WAITING waiting.
 */
@Injectable()
export class SchemaSandbox implements OnApplicationShutdown {
  private readonly logger = new Logger('SchemaSandbox');
  private worker?: Worker;
  private ready = false;
  private running?: Job;
  private readonly waiting = new Map<string, Job[]>();
  /** Owners with jobs waiting, in the order they get their next turn. */
  private readonly turns: string[] = [];
  private nextId = 1;
  private closed = false;

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

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    this.failWaiting();
    if (this.running) this.finish(this.running, { kind: 'failed' });
    await this.worker?.terminate();
  }

  private submit(owner: string, request: WorkerRequest): Promise<SandboxOutcome<WorkerReply>> {
    if (this.closed) return Promise.resolve({ kind: 'failed' });
    const jobs = this.waiting.get(owner) ?? [];
    if (jobs.length >= MAX_WAITING) return Promise.resolve({ kind: 'busy' });
    return new Promise((settle) => {
      jobs.push({ owner, request, settle });
      if (jobs.length === 1) {
        this.waiting.set(owner, jobs);
        this.turns.push(owner);
      }
      this.pump();
    });
  }

  /** Starts the next job if the worker is free, starting a worker first if there is none. */
  private pump(): void {
    // An idle worker must not keep the process alive (the command line, the bench's baseline); a busy one must.
    if (this.running || this.turns.length > 0) this.worker?.ref();
    else this.worker?.unref();
    if (this.closed || this.running || this.turns.length === 0) return;
    if (!this.worker) this.start();
    if (!this.ready) return;
    const owner = this.turns.shift() as string;
    const jobs = this.waiting.get(owner) as Job[];
    const job = jobs.shift() as Job;
    if (jobs.length > 0) this.turns.push(owner);
    else this.waiting.delete(owner);
    this.running = job;
    job.timer = setTimeout(() => this.stopRunaway(job), SANDBOX_DEADLINE_MS);
    this.worker?.postMessage(job.request);
  }

  private start(): void {
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { entry: WORKER_ENTRY },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      stdout: false,
      stderr: false,
    });
    this.worker = worker;
    this.ready = false;
    const startTimer = setTimeout(() => void worker.terminate(), START_TIMEOUT_MS).unref();
    worker.on('message', (reply: WorkerReply) => {
      if (worker !== this.worker) return;
      if (reply.kind === 'ready') {
        clearTimeout(startTimer);
        this.ready = true;
      } else if (this.running && reply.id === this.running.request.id) {
        this.finish(this.running, { kind: 'answered', reply });
      }
      this.pump();
    });
    worker.on('error', (error) => this.logger.warn({ err: error }, 'schema worker failed'));
    worker.on('exit', () => {
      clearTimeout(startTimer);
      if (worker !== this.worker) return;
      const wasReady = this.ready;
      this.worker = undefined;
      this.ready = false;
      if (this.running) this.finish(this.running, { kind: 'failed' });
      // A worker that cannot even start would be restarted forever: fail what waits instead.
      if (!wasReady) this.failWaiting();
      this.pump();
    });
  }

  /** Past the deadline: terminating the worker is the one way to stop JavaScript (or a RegExp) mid-run. */
  private stopRunaway(job: Job): void {
    if (this.running !== job) return;
    const worker = this.worker;
    this.worker = undefined;
    this.ready = false;
    this.finish(job, { kind: 'timed_out' });
    void worker?.terminate();
    this.pump();
  }

  private finish(job: Job, outcome: SandboxOutcome<WorkerReply>): void {
    clearTimeout(job.timer);
    if (this.running === job) this.running = undefined;
    job.settle(outcome);
  }

  private failWaiting(): void {
    for (const jobs of this.waiting.values()) for (const job of jobs) job.settle({ kind: 'failed' });
    this.waiting.clear();
    this.turns.length = 0;
  }
}
