/** Where spans go: an OTLP collector (in one of OTLP's three protocols), the console (stdout), or both. */
export type TraceExporterName = 'otlp' | 'console';
type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';
type SamplerName = 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';

/**
 * OpenTelemetry tracing, from the standard `OTEL_*` variables (docs/operations.md, "Tracing"). Spans are recorded
 * only when an exporter is configured; otherwise nothing is recorded, and the service still passes W3C trace
 * context on to receivers (see Tracing).
 */
export interface TracingSettings {
  /** Empty: tracing is off (OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER=none, or neither an exporter nor an endpoint set). */
  readonly exporters: readonly TraceExporterName[];
  readonly otlp: { readonly protocol: OtlpProtocol; readonly url: string };
  /** The resource: service.name (OTEL_SERVICE_NAME, else OTEL_RESOURCE_ATTRIBUTES', else action-gateway) and the rest. */
  readonly resource: Readonly<Record<string, string>>;
  readonly sampler: { readonly name: SamplerName; readonly ratio: number };
  /** Whether an incoming `traceparent` is continued (OTEL_PROPAGATORS names tracecontext; `none` does not). */
  readonly continueIncoming: boolean;
  /** Whether requests to /metrics, /healthz and /readyz (scrapes and probes, every few seconds) are traced (TRACE_PROBES). */
  readonly traceProbes: boolean;
  /** The batch span processor (OTEL_BSP_*). */
  readonly batch: { readonly scheduledDelayMs: number; readonly exportTimeoutMs: number; readonly maxQueueSize: number; readonly maxExportBatchSize: number };
}

/** The OTEL_* variables this service reads itself (the exporters read their own connection details too). */
interface TracingVariables {
  OTEL_SDK_DISABLED?: boolean;
  OTEL_TRACES_EXPORTER?: string;
  OTEL_EXPORTER_OTLP_PROTOCOL?: string;
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?: string;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  OTEL_SERVICE_NAME?: string;
  OTEL_RESOURCE_ATTRIBUTES?: string;
  OTEL_TRACES_SAMPLER?: string;
  OTEL_TRACES_SAMPLER_ARG?: string;
  OTEL_PROPAGATORS?: string;
  OTEL_BSP_SCHEDULE_DELAY?: number;
  OTEL_BSP_EXPORT_TIMEOUT?: number;
  OTEL_BSP_MAX_QUEUE_SIZE?: number;
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE?: number;
  TRACE_PROBES?: boolean;
}

type Report = (variable: string, problem: string) => void;

const DEFAULT_SERVICE_NAME = 'action-gateway';
const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json', 'grpc'];
const SAMPLERS: readonly SamplerName[] = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];
/** Propagators other SDKs know that this service does not: named in a warning, then ignored. */
const OTHER_PROPAGATORS = new Set(['b3', 'b3multi', 'jaeger', 'xray', 'ottrace']);

/**
 * Reads the OTEL_* variables as the OpenTelemetry specification defines them, with one difference: an unset
 * OTEL_TRACES_EXPORTER means `otlp` only when an OTLP endpoint is set, and no tracing otherwise (the
 * specification's default sends to localhost:4318, where nothing listens in most deployments). Problems go to
 * `problem` (refused at start), ignored settings to `warn`.
 */
export function tracingSettings(env: TracingVariables, problem: Report, warn: (text: string) => void): TracingSettings {
  const endpointSet = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  let exporters = traceExporters(env.OTEL_TRACES_EXPORTER, endpointSet, problem);
  if (env.OTEL_SDK_DISABLED) exporters = [];
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf') as OtlpProtocol;
  for (const variable of ['OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] as const) {
    const value = env[variable];
    if (value !== undefined && !PROTOCOLS.includes(value as OtlpProtocol)) problem(variable, `must be one of ${PROTOCOLS.join(', ')}, not "${value}"`);
  }
  return {
    exporters,
    otlp: { protocol, url: otlpTracesUrl(env, protocol) },
    resource: resourceOf(env, problem),
    sampler: samplerOf(env, problem),
    continueIncoming: continuesIncoming(env.OTEL_PROPAGATORS, problem, warn),
    traceProbes: env.TRACE_PROBES ?? false,
    batch: {
      scheduledDelayMs: env.OTEL_BSP_SCHEDULE_DELAY ?? 5_000,
      exportTimeoutMs: env.OTEL_BSP_EXPORT_TIMEOUT ?? 30_000,
      maxQueueSize: env.OTEL_BSP_MAX_QUEUE_SIZE ?? 2_048,
      maxExportBatchSize: Math.min(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE ?? 512, env.OTEL_BSP_MAX_QUEUE_SIZE ?? 2_048),
    },
  };
}

function traceExporters(value: string | undefined, endpointSet: boolean, problem: Report): TraceExporterName[] {
  if (value === undefined) return endpointSet ? ['otlp'] : [];
  const names = [...new Set(value.split(',').map((name) => name.trim().toLowerCase()).filter(Boolean))];
  const unknown = names.filter((name) => !['otlp', 'console', 'none'].includes(name));
  if (unknown.length > 0) {
    problem('OTEL_TRACES_EXPORTER', `must be otlp, console or none (or a comma-separated list), not "${unknown.join(', ')}": Jaeger, Zipkin and most backends take OTLP`);
    return [];
  }
  if (names.includes('none')) {
    if (names.length > 1) problem('OTEL_TRACES_EXPORTER', `names none together with ${names.filter((name) => name !== 'none').join(', ')}: choose`);
    return [];
  }
  return names as TraceExporterName[];
}

/**
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is; else OTEL_EXPORTER_OTLP_ENDPOINT, with `v1/traces` appended for
 * OTLP/HTTP; else the specification's default for the protocol.
 */
function otlpTracesUrl(env: TracingVariables, protocol: OtlpProtocol): string {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT ?? (protocol === 'grpc' ? 'http://localhost:4317' : 'http://localhost:4318');
  return protocol === 'grpc' ? base : `${base.replace(/\/+$/, '')}/v1/traces`;
}

function resourceOf(env: TracingVariables, problem: Report): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const pair of (env.OTEL_RESOURCE_ATTRIBUTES ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const cut = pair.indexOf('=');
    const key = cut > 0 ? pair.slice(0, cut).trim() : '';
    let value: string | undefined;
    try {
      value = cut > 0 ? decodeURIComponent(pair.slice(cut + 1).trim()) : undefined;
    } catch {
      value = undefined;
    }
    if (!key || value === undefined) {
      problem('OTEL_RESOURCE_ATTRIBUTES', `must be key=value pairs separated by commas (values percent-encoded), not "${pair.trim()}"`);
      continue;
    }
    attributes[key] = value;
  }
  attributes['service.name'] = env.OTEL_SERVICE_NAME ?? attributes['service.name'] ?? DEFAULT_SERVICE_NAME;
  return attributes;
}

function samplerOf(env: TracingVariables, problem: Report): TracingSettings['sampler'] {
  const name = (env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on').trim().toLowerCase() as SamplerName;
  if (!SAMPLERS.includes(name)) {
    problem('OTEL_TRACES_SAMPLER', `must be one of ${SAMPLERS.join(', ')}, not "${env.OTEL_TRACES_SAMPLER}"`);
    return { name: 'parentbased_always_on', ratio: 1 };
  }
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (!name.endsWith('traceidratio') || arg === undefined || arg === '') return { name, ratio: 1 };
  const ratio = /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(arg) ? Number(arg) : Number.NaN;
  if (Number.isNaN(ratio)) problem('OTEL_TRACES_SAMPLER_ARG', `must be a number from 0 to 1 (the share of traces sampled), not "${arg}"`);
  return { name, ratio: Number.isNaN(ratio) ? 1 : ratio };
}

/** OTEL_PROPAGATORS (default `tracecontext,baggage`): whether an incoming W3C traceparent is continued. */
function continuesIncoming(value: string | undefined, problem: Report, warn: (text: string) => void): boolean {
  const names = (value ?? 'tracecontext,baggage').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
  const unknown = names.filter((name) => !['tracecontext', 'baggage', 'none'].includes(name) && !OTHER_PROPAGATORS.has(name));
  if (unknown.length > 0) problem('OTEL_PROPAGATORS', `must be a comma-separated list of tracecontext, baggage or none, not "${unknown.join(', ')}"`);
  const ignored = names.filter((name) => OTHER_PROPAGATORS.has(name));
  if (ignored.length > 0) warn(`OTEL_PROPAGATORS: ${ignored.join(', ')} ignored: this service reads and writes W3C trace context (tracecontext) only`);
  return names.includes('tracecontext');
}
