import type { IncomingHttpHeaders } from 'node:http';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Attributes, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace, Tracer } from '@opentelemetry/api';
import { AppConfig } from '../config/app-config';
import { TraceExporterName, TracingSettings } from '../config/tracing-config';
import { Metrics } from '../metrics/metrics';
import { ATTRIBUTE } from './span-attributes';
import { parseTraceParent, startTrace, TraceParent, traceHeaders } from './trace-context';
import type { ExportObserver, RunningTracer } from './trace-exporting';

/** The version the resource names (`service.version`). */
const SERVICE_VERSION = '1.0.0';
/**
 * What Prometheus scrapes and load balancers probe every few seconds: untraced unless TRACE_PROBES says so (12
 * spans a minute of `GET /metrics` alone at a 5 s scrape, telling nothing the metrics do not).
 */
const PROBE_PATHS = new Set(['/metrics', '/healthz', '/readyz']);

/** A span begun with `Tracing.start`, and the trace its children and outgoing calls continue. */
export interface StartedSpan {
  /** The span's own context when recording, else the parent passed in. */
  trace: TraceParent;
  /** Undefined when nothing is recorded (tracing off, or this trace not sampled). */
  span?: Span;
}

/**
 * OpenTelemetry tracing for one application. When an exporter is configured (AppConfig.tracing), each request
 * is a trace: a SERVER span continuing the caller's `traceparent`, and the spans the features start under it
 * with `span`/`start`, all given their parent explicitly (TraceParent). When none is, nothing is recorded, no
 * SDK is loaded, and `span` just runs its work; a request still has a trace context (the caller's, or a new
 * one), which its log lines name and every call to a receiver carries (`outgoingHeaders`).
 */
@Injectable()
export class Tracing implements ExportObserver, OnApplicationShutdown {
  private readonly logger = new Logger('Tracing');
  private readonly running?: RunningTracer;
  private readonly tracer?: Tracer;
  private readonly continueIncoming: boolean;
  private readonly traceProbes: boolean;
  /** The traces of requests in flight, by arrival (AsOf): how a read made for a request finds its span. */
  private readonly byArrival = new Map<number, TraceParent>();
  private readonly failing = new Set<TraceExporterName>();

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    const settings = config.tracing;
    this.continueIncoming = settings.continueIncoming;
    this.traceProbes = settings.traceProbes;
    this.logger.log(tracingSummary(settings));
    if (settings.exporters.length > 0) {
      // Loaded here only: the SDK and the exporters take a few hundred milliseconds to load.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { startTracing } = require('./trace-exporting') as typeof import('./trace-exporting');
      this.running = startTracing(settings, SERVICE_VERSION, this);
      this.tracer = this.running.tracer;
      metrics.zeroTracingSpans(settings.exporters);
    }
  }

  /** Whether spans are recorded and exported. */
  get recording(): boolean {
    return this.tracer !== undefined;
  }

  /**
   * A request's trace, as it arrives: a SERVER span that continues the caller's `traceparent` (unless
   * OTEL_PROPAGATORS says `none`), or when not recording (or for a probe, PROBE_PATHS), the caller's trace
   * context itself, or a new one.
   */
  startRequest(headers: IncomingHttpHeaders, method: string, requestId: string, url = ''): StartedSpan {
    const incoming = this.continueIncoming ? parseTraceParent(headers.traceparent, headers.tracestate) : undefined;
    const parent = incoming ? trace.setSpanContext(ROOT_CONTEXT, incoming) : undefined;
    if (!this.tracer || (!this.traceProbes && PROBE_PATHS.has(url.split('?', 1)[0]))) return { trace: parent ?? startTrace() };
    const span = this.tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { [ATTRIBUTE.httpMethod]: method, [ATTRIBUTE.requestId]: requestId } }, parent);
    return { trace: trace.setSpan(parent ?? ROOT_CONTEXT, span), span };
  }

  /** Ends a request's span with its route pattern and status (a 5xx is an error, as the HTTP conventions say). */
  finishRequest(started: StartedSpan, method: string, route: string | undefined, status: number): void {
    const span = started.span;
    if (!span) return;
    if (route) span.updateName(`${method} ${route}`).setAttribute(ATTRIBUTE.httpRoute, route);
    span.setAttribute(ATTRIBUTE.httpStatus, status);
    if (status >= 500) span.setAttribute(ATTRIBUTE.errorType, String(status)).setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }

  /** Notes that the request that arrived at `arrivedAt` is traced by `parent`, until `forget`. */
  noteArrival(arrivedAt: number, parent: TraceParent): void {
    this.byArrival.set(arrivedAt, parent);
  }

  forgetArrival(arrivedAt: number): void {
    this.byArrival.delete(arrivedAt);
  }

  /** The trace of the request in flight that arrived at `asOf` (reads pass their request's arrival). */
  ofArrival(asOf: number | undefined): TraceParent | undefined {
    return asOf === undefined ? undefined : this.byArrival.get(asOf);
  }

  /** A span under `parent` (a new trace without one), for the caller to end; nothing when not recording. */
  start(parent: TraceParent | undefined, name: string, attributes: Attributes = {}, kind: SpanKind = SpanKind.INTERNAL): StartedSpan {
    if (!this.tracer) return { trace: parent ?? startTrace() };
    const span = this.tracer.startSpan(name, { kind, attributes }, parent);
    return { trace: trace.setSpan(parent ?? ROOT_CONTEXT, span), span };
  }

  /**
   * `work` inside a span under `parent`, ended when it settles; a thrown error marks it failed with the error's
   * kind (its name), never its message. Not recording: `work` runs as it is, and a new trace context is made only if
   * it asks for `trace` without a parent given (a request that logs nothing and calls no receiver makes none).
   */
  async span<T>(parent: TraceParent | undefined, name: string, attributes: Attributes, work: (started: StartedSpan) => Promise<T>): Promise<T> {
    if (!this.tracer) return work(parent ? { trace: parent } : untraced());
    const started = this.start(parent, name, attributes);
    try {
      return await work(started);
    } catch (error) {
      if (started.span) markFailed(started.span, error);
      throw error;
    } finally {
      started.span?.end();
    }
  }


  /**
   * `traceparent` (and `tracestate`, when the trace has one) for a call to a receiver: its span is the parent of
   * what the receiver records. Without a trace (a call made outside any request), a new one.
   */
  outgoingHeaders(parent: TraceParent | undefined): { traceparent: string; tracestate?: string } {
    return traceHeaders(parent ?? startTrace());
  }

  exported(exporter: TraceExporterName, spans: number): void {
    this.metrics.tracingSpans.inc({ exporter, outcome: 'exported' }, spans);
    if (this.failing.delete(exporter)) this.logger.log(`exporting spans (${exporter}) works again`);
  }

  failed(exporter: TraceExporterName, spans: number, error: Error | undefined): void {
    this.metrics.tracingSpans.inc({ exporter, outcome: 'failed' }, spans);
    // One line when exports start failing, one when they work again: not one per batch for as long as it lasts.
    if (this.failing.has(exporter)) return;
    this.failing.add(exporter);
    const where = exporter === 'otlp' ? ` to ${withoutCredentials(this.config.tracing.otlp.url)} (${this.config.tracing.otlp.protocol})` : '';
    this.logger.warn(`exporting spans${where} failed: ${error?.message ?? 'unknown error'}; spans are dropped until it works again`);
  }

  async onApplicationShutdown(): Promise<void> {
    // Exports what is still queued (the batch processor's shutdown flushes it).
    await this.running?.shutdown().catch((error: unknown) => this.logger.warn(`flushing the last spans failed: ${(error as Error).message}`));
  }
}

/**
 * The start-up line: whether spans are recorded, where they go (the OTLP endpoint without credentials; its
 * headers, which may hold a key, are never shown), how they are sampled, and whether probes are traced.
 */
export function tracingSummary(settings: TracingSettings): string {
  if (settings.exporters.length === 0) {
    return 'tracing off: no exporter configured (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_TRACES_EXPORTER); receivers still get a traceparent';
  }
  const where = settings.exporters.map((name) => (name === 'otlp' ? `OTLP ${settings.otlp.protocol} to ${withoutCredentials(settings.otlp.url)}` : 'the console (stdout)'));
  const probes = settings.traceProbes ? 'traced (TRACE_PROBES)' : 'not traced';
  return `tracing on: spans to ${where.join(' and ')}, sampler ${samplerText(settings.sampler)}; /metrics, /healthz, /readyz ${probes}`;
}

function samplerText({ name, ratio }: TracingSettings['sampler']): string {
  return name.endsWith('traceidratio') ? `${name} ${ratio}` : name;
}

/** Marks `span` failed with the kind of `error` (never its message). */
export function markFailed(span: Span, error: unknown): void {
  span.setAttribute(ATTRIBUTE.errorType, errorType(error)).setStatus({ code: SpanStatusCode.ERROR });
}

/** What kind of error ended a span: its class or code, never its message (which may quote a tenant's data). */
function errorType(error: unknown): string {
  if (error instanceof Error) return (error as Error & { code?: unknown }).code === undefined ? error.name : String((error as Error & { code?: unknown }).code);
  return typeof error;
}

/** A URL as a log line may show it: without a user name or password. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return 'the configured endpoint';
  }
}

/** Not recording, with no parent: a new trace, made when `trace` is first read, if ever. */
function untraced(): StartedSpan {
  let made: TraceParent | undefined;
  return {
    get trace(): TraceParent {
      return (made ??= startTrace());
    },
  };
}
