import { Global, Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module';
import { Tracing } from './tracing';

/**
 * OpenTelemetry tracing (Tracing), one per application. Global, because Nest builds a guard that starts spans
 * (BearerAuthGuard) in the module of each controller it guards; the service modules that start spans import it
 * too, so an admin backend that imports one of them gets it.
 */
@Global()
@Module({ imports: [MetricsModule], providers: [Tracing], exports: [Tracing] })
export class TracingModule {}
