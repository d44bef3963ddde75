import { hostname } from 'node:os';
import type { Tracer } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  ReadableSpan,
  Sampler,
  SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { TraceExporterName, TracingSettings } from '../config/tracing-config';

/** What the service learns of each export: spans exported or lost, and why. */
export interface ExportObserver {
  exported(exporter: TraceExporterName, spans: number): void;
  failed(exporter: TraceExporterName, spans: number, error: Error | undefined): void;
}

export interface RunningTracer {
  tracer: Tracer;
  shutdown(): Promise<void>;
}

/**
 * The OpenTelemetry SDK, as the settings say: a tracer provider of this application's own (not registered
 * globally, so an admin backend or a test can run several applications in one process), the sampler, the
 * resource, and a batch span processor per exporter. Loaded only when tracing is on (Tracing): the SDK and the
 * exporters take a few hundred milliseconds to load.
 */
export function startTracing(settings: TracingSettings, version: string, observer: ExportObserver): RunningTracer {
  const resource = resourceFromAttributes({
    'service.version': version,
    'service.instance.id': `${hostname()}/${process.pid}`,
    'host.name': hostname(),
    ...settings.resource,
  });
  const spanProcessors = settings.exporters.map(
    (name) =>
      new BatchSpanProcessor({
        exporter: new ObservedExporter(name, exporterFor(name, settings), observer),
        scheduledDelayMillis: settings.batch.scheduledDelayMs,
        exportTimeoutMillis: settings.batch.exportTimeoutMs,
        maxQueueSize: settings.batch.maxQueueSize,
        maxExportBatchSize: settings.batch.maxExportBatchSize,
      }),
  );
  const provider = new TracerProvider({ resource, sampler: samplerFor(settings.sampler), spanProcessors });
  return { tracer: provider.getTracer('action-gateway', version), shutdown: () => provider.shutdown() };
}

function exporterFor(name: TraceExporterName, settings: TracingSettings): SpanExporter {
  if (name === 'console') return new ConsoleSpanExporter();
  // Headers, timeout, compression and certificates: the exporter reads OTEL_EXPORTER_OTLP_(TRACES_)* itself.
  const { protocol, url } = settings.otlp;
  if (protocol === 'grpc') return new GrpcExporter({ url });
  return protocol === 'http/json' ? new JsonExporter({ url }) : new ProtobufExporter({ url });
}

function samplerFor({ name, ratio }: TracingSettings['sampler']): Sampler {
  const root = name.endsWith('always_off') ? new AlwaysOffSampler() : name.endsWith('traceidratio') ? new TraceIdRatioBasedSampler(ratio) : new AlwaysOnSampler();
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

/** An exporter whose every result is reported (metrics, and a log line when exporting starts or stops failing). */
class ObservedExporter implements SpanExporter {
  constructor(
    private readonly name: TraceExporterName,
    private readonly exporter: SpanExporter,
    private readonly observer: ExportObserver,
  ) {}

  export(spans: ReadableSpan[], resultCallback: Parameters<SpanExporter['export']>[1]): void {
    this.exporter.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS) this.observer.exported(this.name, spans.length);
      else this.observer.failed(this.name, spans.length, result.error);
      resultCallback(result);
    });
  }

  shutdown(): Promise<void> {
    return this.exporter.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.exporter.forceFlush?.() ?? Promise.resolve();
  }
}
