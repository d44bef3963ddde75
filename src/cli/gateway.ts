import 'reflect-metadata';
import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { createApp } from '../app.factory';
import { describeStartupFailure } from '../common/startup-failure';
import { AppConfig } from '../config/app-config';
import { adminKeySource, localOrigin } from '../config/development-hints';
import { loadConfig } from '../config/load-config';
import { EmbeddedPostgres } from '../database/embedded-postgres';
import { parseCommandLine, readJsonFiles } from './command-line';
import { AdminRequest, CommandError, UsageError } from './commands';
import { usageHint } from './help';
import { findRunningService } from './running-service';

/**
 * `npm run gateway -- <command> [--option value ...]`: the management API from a shell. Every command is a call
 * of the admin API: to the service already running on this DATA_DIR (only one process may open the embedded
 * database), or else to a copy of the service started in this process on a loopback port for the duration.
 * Exit status as the GitHub CLI's: 0 done, 1 failed, 2 the command line is wrong.
 */
async function main(argv: string[]): Promise<void> {
  const invocation = parseCommandLine(argv);
  if ('help' in invocation) {
    process.stdout.write(invocation.help);
    return;
  }
  const { command } = invocation;
  const options = readJsonFiles(command, invocation.options);
  // The file is made first (new, 0600), so a command that issues a secret never runs without a place to put it.
  const output = options.output ? createPrivateFile(options.output) : undefined;
  try {
    const config = loadConfig();
    const result = await withAdminApi(config, (request) => command.run(request, options));
    const json = `${JSON.stringify(result, null, 2)}\n`;
    if (output === undefined) {
      process.stdout.write(json);
    } else {
      writeSync(output.fd, json);
      closeSync(output.fd);
      process.stderr.write(`wrote ${output.path} (readable by you only)\n`);
    }
  } catch (error) {
    if (output !== undefined) {
      closeSync(output.fd);
      unlinkSync(output.path);
    }
    throw error;
  }
}

function createPrivateFile(path: string): { path: string; fd: number } {
  try {
    return { path, fd: openSync(path, 'wx', 0o600) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new CommandError(`${path} already exists: remove it or choose another file`);
    throw new CommandError(`cannot create ${path}: ${(error as Error).message}`);
  }
}

async function withAdminApi<T>(config: AppConfig, work: (request: AdminRequest) => Promise<T>): Promise<T> {
  const running = config.databaseUrl ? undefined : await runningServiceOf(config.dataDir);
  if (running) return work(adminClient(running, config.adminApiKey, () => refusedKey(running, config)));
  // Without PUBLIC_URL, a portal link is made with the address its request reached: this copy's port, closed when
  // the command ends. The link belongs to the service this configuration runs, on PORT.
  const publicUrl = config.console.publicUrl ?? localOrigin(config.host, config.port);
  const app = await createApp(new AppConfig({ ...config, logLevel: 'warn', console: { ...config.console, publicUrl } }));
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
  throw new CommandError(`the embedded database in ${dataDir} is held by a process that does not answer`);
}

/**
 * The management API at `baseUrl` with `adminApiKey`. `refused` says what to do when the service refuses the key:
 * only a service started with another configuration can (the command line's own copy runs with its key).
 */
function adminClient(baseUrl: string, adminApiKey: string, refused?: () => string): AdminRequest {
  return async (method, path, body) => {
    const response = await fetch(`${baseUrl}/api/v1/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${adminApiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: typeof body === 'string' ? body : body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (response.status === 401 && refused) throw new CommandError(refused());
    if (!response.ok) throw new CommandError(apiProblem(response.status, text));
    return text ? JSON.parse(text) : undefined;
  };
}

/**
 * The running service refused this command line's admin key: the service was started with another ADMIN_API_KEY
 * (set in its environment, while this command line read the one generated into DATA_DIR, or the other way round).
 */
function refusedKey(serviceUrl: string, config: AppConfig): string {
  const source = adminKeySource(config);
  const fromFile = source !== undefined && 'file' in source;
  const mine = fromFile ? `ADMIN_API_KEY in ${source.file}` : 'the ADMIN_API_KEY set in its environment';
  const theirs = fromFile ? 'the ADMIN_API_KEY set in its environment' : `its own (ADMIN_API_KEY in ${config.dataDir}/secrets.json when none was set for it)`;
  return (
    `the service running at ${serviceUrl} refused this command line's admin key (${mine}): the service uses ${theirs}. ` +
    "Run the command with the service's key: ADMIN_API_KEY=<the service's key> npm run -s gateway -- <command>"
  );
}

/** `{"error":"Tenant not found"}` → `tenant not found`; with details, `invalid request: name: must be …`. */
function apiProblem(status: number, text: string): string {
  try {
    const { error, details } = JSON.parse(text) as { error?: string; details?: string };
    if (typeof error === 'string') {
      const message = /^[A-Z][a-z]/.test(error) ? error.charAt(0).toLowerCase() + error.slice(1) : error;
      return details ? `${message}: ${details}` : message;
    }
  } catch {
    // not the contract's error body: say what came back
  }
  return `the management API answered ${status}`;
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof UsageError) {
      const name = process.argv[2] === 'help' ? process.argv[3] : process.argv[2];
      console.error(`${error.message}\n\n${usageHint(name)}`);
      process.exit(2);
    }
    console.error(error instanceof CommandError ? error.message : (describeStartupFailure(error) ?? error));
    process.exit(1);
  },
);
