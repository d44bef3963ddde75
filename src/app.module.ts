import { DynamicModule, Module } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { loggerOptions } from './common/logging';
import { ActionsModule } from './actions/actions.module';
import { AdminActionsHttpModule } from './admin/admin-actions-http.module';
import { AdminModule } from './admin/admin.module';
import { AuthModule } from './auth/auth.module';
import { BodyValidationPipe } from './common/body-validation.pipe';
import { CommonModule } from './common/common.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ConsoleAuthHttpModule } from './console-auth/console-auth-http.module';
import { ConsoleHttpModule } from './console/console-http.module';
import { DatabaseModule } from './database/database.module';
import { ExecutionsModule } from './executions/executions.module';
import { HealthModule } from './health/health.module';
import { MetricsEndpointModule } from './metrics/metrics-endpoint.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { TenancyModule } from './tenancy/tenancy.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static forRoot(config?: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        // Request logs come from Fastify's pino (with the request id); nestjs-pino writes the application's own
        // logs through the request's logger when there is one, and through this configuration otherwise.
        LoggerModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (appConfig: AppConfig) => ({ useExisting: true, pinoHttp: loggerOptions(appConfig) }),
        }),
        CommonModule,
        DatabaseModule,
        RateLimitModule,
        TenancyModule,
        AuthModule,
        WebhooksModule,
        ActionsModule,
        ExecutionsModule,
        AdminModule,
        AdminActionsHttpModule,
        ConsoleAuthHttpModule,
        ConsoleHttpModule,
        HealthModule,
        MetricsEndpointModule,
      ],
      providers: [{ provide: APP_PIPE, useClass: BodyValidationPipe }],
    };
  }
}
