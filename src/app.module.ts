import { DynamicModule, Module } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { ActionsHttpModule } from './actions/actions-http.module';
import { AdminActionsHttpModule } from './admin/admin-actions-http.module';
import { AdminHttpModule } from './admin/admin-http.module';
import { AuthHttpModule } from './auth/auth-http.module';
import { BodyValidationPipe } from './common/body-validation.pipe';
import { CommonModule } from './common/common.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { loadConfig } from './config/load-config';
import { ConsoleAuthHttpModule } from './console-auth/console-auth-http.module';
import { ConsoleHttpModule } from './console/console-http.module';
import { RootRedirectHttpModule } from './console/root-redirect-http.module';
import { DatabaseModule } from './database/database.module';
import { ExecutionsHttpModule } from './executions/executions-http.module';
import { HealthHttpModule } from './health/health-http.module';
import { MetricsHttpModule } from './metrics/metrics-http.module';
import { ToolsHttpModule } from './tools/tools-http.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        CommonModule,
        DatabaseModule,
        // The HTTP modules: each imports its feature's service module and declares the routes. An admin backend
        // imports the service modules instead (ActionsModule, AuthModule, AdminModule, ...) and gets no routes.
        AuthHttpModule,
        ActionsHttpModule,
        ExecutionsHttpModule,
        ToolsHttpModule,
        AdminHttpModule,
        AdminActionsHttpModule,
        ConsoleAuthHttpModule,
        ConsoleHttpModule,
        // `GET /` leads a browser to the console on a development machine; in production it is an unknown route.
        ...(config.production ? [] : [RootRedirectHttpModule]),
        HealthHttpModule,
        MetricsHttpModule,
      ],
      providers: [{ provide: APP_PIPE, useClass: BodyValidationPipe }],
    };
  }
}
