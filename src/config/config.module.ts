import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config';
import { loadConfig } from './load-config';

/** Provides the validated `AppConfig` everywhere. Tests and the admin backend pass their own. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }
}
