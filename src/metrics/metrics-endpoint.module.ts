import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { MetricsModule } from './metrics.module';

@Module({ imports: [MetricsModule], controllers: [MetricsController] })
export class MetricsEndpointModule {}
