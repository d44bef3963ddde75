import { Module } from '@nestjs/common';
import { Metrics } from './metrics';

/** The metrics registry; modules that count something import this, the app serves it (MetricsHttpModule). */
@Module({ providers: [Metrics], exports: [Metrics] })
export class MetricsModule {}
