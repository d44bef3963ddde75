import './v8-flags';
import 'reflect-metadata';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from './app.factory';
import { describeStartupFailure, namingHost } from './common/startup-failure';
import { announceService, withdrawService } from './cli/running-service';
import { AppConfig } from './config/app-config';
import { startLine } from './config/development-hints';
import { loadConfig } from './config/load-config';
import { ShutdownState } from './health/shutdown-state';

/** Log levels at which the service says what it is doing (the plain start line too); quieter ones keep it quiet. */
const INFO_OR_MORE = new Set(['info', 'debug', 'trace']);

async function main(): Promise<void> {
  const config = loadConfig();
  // A port already taken is found before the database is opened and Nest boots, so it is one prompt line.
  await namingHost(config.host, assertPortFree(config.host, config.port));
  const app = await createApp(config);
  await namingHost(config.host, app.listen({ port: config.port, host: config.host }));
  const { port } = app.getHttpServer().address() as { port: number };
  // The command line finds the service through this file and goes through its admin API.
  if (!config.databaseUrl) announceService(config.dataDir, port);
  // Outside production, where the console and the admin key are: a log line like any other (output that is read
  // by programs stays JSON lines), and the same as one plain line for a person at a terminal.
  const line = startLine(config, port);
  if (line) {
    new Logger('Start').log(line);
    if (process.stderr.isTTY && INFO_OR_MORE.has(config.logLevel)) process.stderr.write(`${line}\n`);
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void shutdown(app, config, signal));
}

/**
 * Graceful stop: readiness turns 503 at once while requests are still served for SHUTDOWN_DELAY_MS (so load
 * balancers stop sending), then the server stops accepting and in-flight requests (a webhook call may take
 * 30 s) finish, keep-alive sockets close, and only then do the database and outbound clients close. Exit 0, or
 * 1 if SHUTDOWN_GRACE_MS runs out first.
 */
async function shutdown(app: NestFastifyApplication, config: AppConfig, signal: string): Promise<void> {
  app.get(ShutdownState).begin();
  const logger = new Logger('Shutdown');
  const deadline = setTimeout(() => {
    logger.error(`shutdown did not finish within ${config.shutdown.graceMs} ms: exiting`);
    process.exit(1);
  }, config.shutdown.graceMs);
  deadline.unref();
  logger.log(`${signal}: not ready any more; closing in ${config.shutdown.delayMs} ms, then draining`);
  await sleep(config.shutdown.delayMs);
  await app.close();
  logger.log('drained and closed');
  if (!config.databaseUrl) withdrawService(config.dataDir);
  process.exit(0);
}

/** Binds and releases the port; fails with the listen error (EADDRINUSE, EACCES, ...) the service would get. */
async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

main().catch((error: unknown) => {
  // What an operator can fix (configuration, port, data directory, database) is one plain line each; anything
  // else is a bug and keeps its stack.
  console.error(describeStartupFailure(error) ?? error);
  process.exit(1);
});
