/** Calls the management API (of the running service, or of one the command line starts for itself). */
export type AdminRequest = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: Record<string, unknown>) => Promise<unknown>;

type Options = Record<string, string | undefined>;

export interface Command {
  summary: string;
  options: string[];
  run(request: AdminRequest, options: Options): Promise<unknown>;
}

export class UsageError extends Error {}

const required = (options: Options, name: string): string => {
  const value = options[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
};
const tenantPath = (options: Options) => `/tenants/${encodeURIComponent(required(options, 'tenant-id'))}`;
const idPath = (options: Options, name: string) => encodeURIComponent(required(options, name));

/** The management operations, by name. Each is one or more admin API calls; its result is printed as JSON. */
export const COMMANDS: Record<string, Command> = {
  bootstrap: {
    summary: 'create a tenant with one API token and one HMAC key; prints {tenant, api_token, hmac_key}',
    options: ['tenant'],
    async run(request, options) {
      const { tenant } = (await request('POST', '/tenants', { name: required(options, 'tenant') })) as { tenant: { id: string } };
      const { api_token } = (await request('POST', `/tenants/${tenant.id}/api-tokens`, { name: 'bootstrap' })) as { api_token: unknown };
      const { hmac_key } = (await request('POST', `/tenants/${tenant.id}/hmac-keys`)) as { hmac_key: unknown };
      return { tenant, api_token, hmac_key };
    },
  },
  'tenants:list': { summary: 'list tenants', options: [], run: (request) => request('GET', '/tenants') },
  'tenants:create': {
    summary: 'create a tenant',
    options: ['name'],
    run: (request, options) => request('POST', '/tenants', { name: required(options, 'name') }),
  },
  'tenants:disable': {
    summary: 'disable a tenant: its API and bearer tokens stop working',
    options: ['tenant-id'],
    run: (request, options) => request('PATCH', tenantPath(options), { status: 'disabled' }),
  },
  'tenants:enable': {
    summary: 'enable a tenant again',
    options: ['tenant-id'],
    run: (request, options) => request('PATCH', tenantPath(options), { status: 'active' }),
  },
  'api-tokens:create': {
    summary: 'issue an API token (its value is shown once)',
    options: ['tenant-id', 'name', 'expires-at'],
    run: (request, options) =>
      request('POST', `${tenantPath(options)}/api-tokens`, { name: required(options, 'name'), expires_at: options['expires-at'] }),
  },
  'api-tokens:list': { summary: 'list API tokens', options: ['tenant-id'], run: (request, options) => request('GET', `${tenantPath(options)}/api-tokens`) },
  'api-tokens:revoke': {
    summary: 'revoke an API token',
    options: ['tenant-id', 'token-id'],
    run: (request, options) => request('DELETE', `${tenantPath(options)}/api-tokens/${idPath(options, 'token-id')}`),
  },
  'hmac-keys:create': { summary: 'create an HMAC key (shown once)', options: ['tenant-id'], run: (request, options) => request('POST', `${tenantPath(options)}/hmac-keys`) },
  'hmac-keys:list': { summary: 'list HMAC keys', options: ['tenant-id'], run: (request, options) => request('GET', `${tenantPath(options)}/hmac-keys`) },
  'hmac-keys:revoke': {
    summary: 'revoke an HMAC key',
    options: ['tenant-id', 'key-id'],
    run: (request, options) => request('DELETE', `${tenantPath(options)}/hmac-keys/${idPath(options, 'key-id')}`),
  },
};
