import { isAbsolute, relative } from 'node:path';
import { AppConfig } from './app-config';

/**
 * Where the admin key of a development service is: the file it was generated into (relative to the working
 * directory when the file is under it, `.data/secrets.json`), or the environment. Undefined in production: a path
 * there is nobody's business but the operator's.
 */
export type AdminKeySource = { file: string } | { environment: true };

export function adminKeySource(config: Pick<AppConfig, 'production' | 'adminApiKeyFile'>, cwd = process.cwd()): AdminKeySource | undefined {
  if (config.production) return undefined;
  if (!config.adminApiKeyFile) return { environment: true };
  const local = relative(cwd, config.adminApiKeyFile);
  return { file: local && !local.startsWith('..') && !isAbsolute(local) ? local : config.adminApiKeyFile };
}

/** `ADMIN_API_KEY in .data/secrets.json`, as a person at the machine reads it. */
export function adminKeyLocation(source: AdminKeySource): string {
  return 'file' in source ? `ADMIN_API_KEY in ${source.file}` : "the ADMIN_API_KEY set in the service's environment";
}

/** The origin a browser on this machine reaches a service listening on `host`:`port` at. */
export function localOrigin(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/**
 * The one plain line a development service prints once it listens, among its JSON log lines: where the console
 * is and where its admin key is. Undefined in production, whose output is for log collectors.
 */
export function startLine(
  config: Pick<AppConfig, 'production' | 'adminApiKeyFile' | 'host'> & { console: Pick<AppConfig['console'], 'publicUrl'> },
  port: number,
  cwd = process.cwd(),
): string | undefined {
  const source = adminKeySource(config, cwd);
  if (!source) return undefined;
  const origin = config.console.publicUrl ?? localOrigin(config.host, port);
  return `Action Gateway is listening: console at ${origin}/console (admin key: ${adminKeyLocation(source)}), API at ${origin}/api/v1/gateway`;
}
