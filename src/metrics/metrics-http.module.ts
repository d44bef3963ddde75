import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { MetricsModule } from './metrics.module';

/** `/metrics`: the registry of `MetricsModule` as Prometheus text. */
@Module({ imports: [MetricsModule], controllers: [MetricsController] })
export class MetricsHttpModule {}
