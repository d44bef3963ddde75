import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { createApp } from '../app.factory';
import { ConfigError } from '../config/config.error';
import { AppConfig } from '../config/app-config';
import { loadConfig } from '../config/load-config';
import { EmbeddedPostgres } from '../database/embedded-postgres';
import { AdminRequest, COMMANDS, UsageError } from './commands';
import { findRunningService } from './running-service';

/**
 * `npm run gateway -- <command> [--option value ...]`: the management API from a shell. Every command is a call
 * of the admin API: to the service already running on this DATA_DIR (only one process may open the embedded
 * database), or else to a copy of the service started in this process on a loopback port for the duration.
 */
async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(name ? `unknown command ${name}` : 'no command');
  const { values } = parseArgs({
    args: rest,
    options: Object.fromEntries(command.options.map((option) => [option, { type: 'string' as const }])),
    strict: true,
  });
  const config = loadConfig();
  const result = await withAdminApi(config, (request) => command.run(request, values as Record<string, string | undefined>));
  if (result !== undefined) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

async function withAdminApi<T>(config: AppConfig, work: (request: AdminRequest) => Promise<T>): Promise<T> {
  const running = config.databaseUrl ? undefined : await runningServiceOf(config.dataDir);
  if (running) return work(adminClient(running, config.adminApiKey));
  const app = await createApp(new AppConfig({ ...config, logLevel: 'warn' }));
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.getHttpServer().address() as { port: number };
    return await work(adminClient(`http://127.0.0.1:${port}`, config.adminApiKey));
  } finally {
    await app.close();
  }
}

/** The service holding the embedded database, waiting for it to finish starting if it is. */
async function runningServiceOf(dataDir: string): Promise<string | undefined> {
  for (let waited = 0; waited < 30_000; waited += 250) {
    const service = findRunningService(dataDir);
    if (service) return service.url;
    if (!EmbeddedPostgres.findHolder(dataDir)) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the embedded database in ${dataDir} is held by a process that does not answer`);
}

function adminClient(baseUrl: string, adminApiKey: string): AdminRequest {
  return async (method, path, body) => {
    const response = await fetch(`${baseUrl}/api/v1/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${adminApiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (!response.ok) throw new AdminApiError(text || `${response.status}`);
    return text ? JSON.parse(text) : undefined;
  };
}

class AdminApiError extends Error {}

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, command]) => {
    const options = command.options.map((option) => `--${option} <${option}>`).join(' ');
    return `  ${`${name} ${options}`.padEnd(62)} ${command.summary}`;
  });
  return ['usage: npm run gateway -- <command> [options]', '', ...lines].join('\n');
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\n\n${usage()}`);
      process.exit(2);
    }
    console.error(error instanceof ConfigError || error instanceof AdminApiError ? error.message : error);
    process.exit(1);
  },
);
