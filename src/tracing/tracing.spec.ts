import { tracingSettings, TracingSettings } from '../config/tracing-config';
import { tracingSummary } from './tracing';

/** The settings the OTEL_* (and TRACE_PROBES) variables give, as loadConfig reads them. */
function settingsOf(env: Record<string, string | boolean>): TracingSettings {
  const problems: string[] = [];
  const settings = tracingSettings(env, (variable, problem) => problems.push(`${variable} ${problem}`), () => undefined);
  expect(problems).toEqual([]);
  return settings;
}

describe('tracingSummary (the start-up line)', () => {
  it('says tracing is off, and what turns it on', () => {
    expect(tracingSummary(settingsOf({}))).toBe(
      'tracing off: no exporter configured (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_TRACES_EXPORTER); receivers still get a traceparent',
    );
    expect(tracingSummary(settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: true }))).toMatch(/^tracing off/);
  });

  it('says where spans go, without the credentials of the endpoint, how they are sampled, and whether probes are traced', () => {
    expect(tracingSummary(settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://user:s3cret@collector.example:4318/' }))).toBe(
      'tracing on: spans to OTLP http/protobuf to https://collector.example:4318/v1/traces, sampler parentbased_always_on; /metrics, /healthz, /readyz not traced',
    );
    const both = settingsOf({
      OTEL_TRACES_EXPORTER: 'otlp,console',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
      TRACE_PROBES: true,
    });
    expect(tracingSummary(both)).toBe(
      'tracing on: spans to OTLP grpc to http://localhost:4317/ and the console (stdout), sampler parentbased_traceidratio 0.1; /metrics, /healthz, /readyz traced (TRACE_PROBES)',
    );
  });
});
