import { AppConfig } from '../../src/config/app-config';
import { tracingSettings } from '../../src/config/tracing-config';
import { Metrics } from '../../src/metrics/metrics';
import { Tracing } from '../../src/tracing/tracing';

const refuse = (text: string) => {
  throw new Error(text);
};

/** Tracing as an environment without OTEL_* variables configures it (off), for unit specs that build services by hand. */
export function tracingOff(metrics = new Metrics()): Tracing {
  return new Tracing({ tracing: tracingSettings({}, refuse, refuse) } as AppConfig, metrics);
}
