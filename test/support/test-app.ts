import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { createAdapter, configureApp } from '../../src/app.factory';
import { createLogger } from '../../src/common/logging';
import { AppModule } from '../../src/app.module';
import { AppConfig } from '../../src/config/app-config';
import { loadConfig } from '../../src/config/load-config';
import { testDatabase } from './database';
import { Receiver } from './receiver';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  /** `http://127.0.0.1:<port>`: the app listens on a real socket. */
  baseUrl: string;
  close(): Promise<void>;
}

/** A configuration for tests: the worker's database, fresh secrets, silent logs; `env` overrides any variable. */
export async function testConfig(env: Record<string, string> = {}): Promise<AppConfig> {
  const database = testDatabase();
  return loadConfig({
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: database.embedded ? '1' : '10',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'agw-test-')),
    JWT_SECRET: randomBytes(48).toString('base64'),
    ADMIN_API_KEY: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'silent',
    RUN_MIGRATIONS: 'false',
    // Every test makes tenants and exchanges tokens from one address; the limit has tests of its own.
    TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE: '1000000',
    // Likewise the operators' management calls: tests make tenants as fast as they can.
    OPERATOR_RATE_LIMIT_PER_MINUTE: '1000000',
    // And the circuit breaker: tests fail receivers on purpose, five times and more, then expect the next call to go
    // out. test/circuit-breaker.e2e-spec.ts and the console's tests turn it on.
    WEBHOOK_BREAKER_FAILURES: '0',
    ...env,
  });
}

export interface TestAppOptions {
  env?: Record<string, string>;
  config?: AppConfig;
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
}

/** Boots the whole app in-process on 127.0.0.1, as `main.ts` does, with optional provider overrides. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = options.config ?? (await testConfig(options.env));
  const builder = Test.createTestingModule({ imports: [AppModule.forRoot(config)] });
  const moduleRef = await (options.override ? options.override(builder) : builder).compile();
  const logger = createLogger(config);
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createAdapter(config, logger), {
    bufferLogs: true,
    bodyParser: false,
  });
  await configureApp(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as { port: number };
  return { app, config, baseUrl: `http://127.0.0.1:${address.port}`, close: () => app.close() };
}

export interface AppWithReceiver {
  testApp: TestApp;
  /** Answers `ok` until a test changes its behaviour. */
  receiver: Receiver;
  dataSource: DataSource;
}

/**
 * Registers the hooks of an e2e suite in the calling `describe`: the app (booted with `options`) and one webhook
 * receiver once, both closed after the last test. Read the fields inside tests (they are set by then).
 */
export function appWithReceiver(options: TestAppOptions = {}): AppWithReceiver {
  const suite = {} as AppWithReceiver;
  beforeAll(async () => {
    suite.testApp = await startTestApp(options);
    suite.receiver = await Receiver.start();
    suite.dataSource = suite.testApp.app.get(DataSource);
  });
  afterAll(async () => {
    await suite.receiver?.stop();
    await suite.testApp?.close();
  });
  return suite;
}
