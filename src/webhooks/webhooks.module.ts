import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantTablesModule } from '../tenancy/tenant-tables';
import { MetricsModule } from '../metrics/metrics.module';
import { TracingModule } from '../tracing/tracing.module';
import { CircuitBreakers } from './circuit-breakers';
import { DestinationGuard } from './destination-guard';
import { DnsResolver, SystemDnsResolver } from './dns-resolver';
import { HmacKey } from './hmac-key.entity';
import { HmacKeysRepository } from './hmac-keys.repository';
import { HmacKeysService } from './hmac-keys.service';
import { KeyCipher } from './key-cipher';
import { WebhookClient } from './webhook-client';
import { WebhookService } from './webhook.service';

@Module({
  imports: [TypeOrmModule.forFeature([HmacKey]), TenantTablesModule, MetricsModule, TracingModule],
  providers: [
    CircuitBreakers,
    { provide: DnsResolver, useClass: SystemDnsResolver },
    DestinationGuard,
    KeyCipher,
    HmacKeysRepository,
    HmacKeysService,
    WebhookClient,
    WebhookService,
  ],
  exports: [CircuitBreakers, HmacKeysService, WebhookService, DestinationGuard],
})
export class WebhooksModule {}
