import 'reflect-metadata';
import { createApp } from './app.factory';
import { announceService, withdrawService } from './cli/running-service';
import { ConfigError } from './config/config.error';
import { loadConfig } from './config/load-config';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  await app.listen({ port: config.port, host: config.host });
  if (!config.databaseUrl) {
    // The command line finds the service through this file and goes through its admin API.
    announceService(config.dataDir, (app.getHttpServer().address() as { port: number }).port);
    process.on('exit', () => withdrawService(config.dataDir));
  }
}

main().catch((error: unknown) => {
  // A configuration problem is one clear line; anything else keeps its stack for the operator.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
