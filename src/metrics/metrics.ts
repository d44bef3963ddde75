import { Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const MISNAMED_DEFAULT_GAUGES = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];
/** The statuses `executions_total` counts: an execution's, once it has ended. */
const EXECUTION_STATUSES = ['succeeded', 'failed'] as const;

/**
 * The service's Prometheus metrics, in a registry of its own (so two applications in one process, as in the
 * tests or an admin backend, do not mix their numbers).
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly webhookDuration = new Histogram({
    name: 'webhook_delivery_duration_seconds',
    help: 'Outbound webhook calls (each attempt) by kind and outcome',
    labelNames: ['kind', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused with 429, by budget',
    labelNames: ['throttler'] as const,
    registers: [this.registry],
  });

  readonly rateLimitFallbacks = new Counter({
    name: 'rate_limit_redis_fallbacks_total',
    help: 'Requests counted in memory because Redis could not be reached',
    registers: [this.registry],
  });

  readonly tracingSpans = new Counter({
    name: 'tracing_spans_total',
    help: 'Spans handed to a trace exporter, by exporter and outcome (exported, or failed and dropped)',
    labelNames: ['exporter', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly executions = new Counter({
    name: 'executions_total',
    help: 'Executions run (the execute route, MCP tools/call, the console), by the stored status: succeeded or failed',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  readonly executionsAccepted = new Counter({
    name: 'executions_accepted_total',
    help: 'Executions accepted with Prefer: respond-async (stored pending, run in the background); executions_total counts them when they end',
    registers: [this.registry],
  });

  readonly asyncExecutionsRunning = new Gauge({
    name: 'async_executions_running',
    help: 'Asynchronous executions this replica is running now (at most ASYNC_EXECUTION_CONCURRENCY)',
    registers: [this.registry],
  });

  readonly executionsShortCircuited = new Counter({
    name: 'executions_short_circuited_total',
    help: 'Executions failed at once, nothing sent, because their action\'s circuit was open (or half-open, its probe under way); executions_total counts them as failed',
    registers: [this.registry],
  });

  readonly circuitOpenings = new Counter({
    name: 'webhook_circuit_openings_total',
    help: 'Times an action\'s circuit opened on this replica (WEBHOOK_BREAKER_FAILURES consecutive failed executions, or a failed probe)',
    registers: [this.registry],
  });

  /** Read at each scrape from what observeCircuits() was given. */
  private circuitCounts?: () => Record<'closed' | 'open' | 'half_open', number>;

  readonly circuits = new Gauge({
    name: 'webhook_circuits',
    help: 'Actions\' circuits this replica holds, by state (closed, open, half_open); at most 10000 in all',
    labelNames: ['state'] as const,
    registers: [this.registry],
    collect: () => {
      const counts = this.circuitCounts?.() ?? { closed: 0, open: 0, half_open: 0 };
      for (const state of ['closed', 'open', 'half_open'] as const) this.circuits.set({ state }, counts[state]);
    },
  });

  /** Read at each scrape from what observeDatabasePool() was given. */
  private databasePoolStats?: () => { total: number; idle: number; waiting: number; max: number };
  /** Read at each scrape from what observeReadModelMemory() was given. */
  private readModelMemoryStats?: () => { bytes: number; entries: number };

  readonly databasePool = new Gauge({
    name: 'database_pool_connections',
    help: 'Database pool connections by state (total open, idle, requests waiting for one, max the pool may open)',
    labelNames: ['state'] as const,
    registers: [this.registry],
    collect: () => {
      const stats = this.databasePoolStats?.();
      if (!stats) return;
      for (const state of ['total', 'idle', 'waiting', 'max'] as const) this.databasePool.set({ state }, stats[state]);
    },
  });

  /** Read at each scrape from what observeRedis() was given. */
  private redisReady: () => boolean = () => false;

  /** Registered by observeRedis() only: without REDIS_URL there is no Redis to be down, and no series. */
  readonly redisUp: Gauge = new Gauge({
    name: 'redis_up',
    help: '1 while the connection to the rate limits\' Redis (REDIS_URL) is ready, else 0 (counts fall back to memory)',
    registers: [],
    collect: (): void => this.redisUp.set(this.redisReady() ? 1 : 0),
  });

  readonly readModelReads = new Counter({
    name: 'read_model_reads_total',
    help: 'Reads of the read model (actions, API tokens, tenants, HMAC keys) by what answered them: memory or the database',
    labelNames: ['cache', 'source'] as const,
    registers: [this.registry],
  });

  readonly readModelMemory = new Gauge({
    name: 'read_model_memory_bytes',
    help: 'What the read model holds in memory, as it counts it against READ_MODEL_CACHE_MB (estimated heap bytes)',
    registers: [this.registry],
    collect: () => {
      const stats = this.readModelMemoryStats?.();
      if (stats) this.readModelMemory.set(stats.bytes);
    },
  });

  readonly readModelEntries = new Gauge({
    name: 'read_model_entries',
    help: 'Entries the read model holds in memory (token standings, tenant statuses, tenants\' actions and keys)',
    registers: [this.registry],
    collect: () => {
      const stats = this.readModelMemoryStats?.();
      if (stats) this.readModelEntries.set(stats.entries);
    },
  });

  readonly readModelResets = new Counter({
    name: 'read_model_resets_total',
    help: 'Times the read model forgot everything it held (it started, missed change-log entries, or saw the log go back)',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    // A counter's series exists from its first increment, so rate() and increase() would miss that first burst
    // (the series appears already at its value): every label set known in advance starts at 0. The rate limits'
    // budgets and the trace exporters name theirs where they are set up (zeroRateLimits, zeroTracingSpans).
    for (const status of EXECUTION_STATUSES) this.executions.inc({ status }, 0);
    // Gauges named like counters, which `promtool check metrics` flags; each is the sum over `type` of the
    // correctly named gauge beside it (nodejs_active_handles, nodejs_active_requests, nodejs_active_resources).
    for (const name of MISNAMED_DEFAULT_GAUGES) this.registry.removeSingleMetric(name);
  }

  /** Each budget `rate_limit_rejections_total` may name, at 0 until it refuses a request. */
  zeroRateLimits(throttlers: readonly string[]): void {
    for (const throttler of throttlers) this.rateLimited.inc({ throttler }, 0);
  }

  /** Each configured exporter's `tracing_spans_total`, both outcomes, at 0 until spans are handed to it. */
  zeroTracingSpans(exporters: readonly string[]): void {
    for (const exporter of exporters) for (const outcome of ['exported', 'failed']) this.tracingSpans.inc({ exporter, outcome }, 0);
  }

  /** The database pool whose connections `database_pool_connections` reports. */
  observeDatabasePool(stats: () => { total: number; idle: number; waiting: number; max: number }): void {
    this.databasePoolStats = stats;
  }

  /** The circuit breakers whose circuits `webhook_circuits` counts. */
  observeCircuits(counts: () => Record<'closed' | 'open' | 'half_open', number>): void {
    this.circuitCounts = counts;
  }

  observeReadModelMemory(stats: () => { bytes: number; entries: number }): void {
    this.readModelMemoryStats = stats;
  }

  /** The Redis connection whose state `redis_up` reports. */
  observeRedis(ready: () => boolean): void {
    this.redisReady = ready;
    if (!this.registry.getSingleMetric('redis_up')) this.registry.registerMetric(this.redisUp);
  }

  /**
   * Times every request by its route pattern (never the raw URL, which would make one series per action). A
   * callback hook, as every hook of the request path: an async one costs each request a promise and its settling.
   */
  observeHttp(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      this.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
      done();
    });
  }
}
