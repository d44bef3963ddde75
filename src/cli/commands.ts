/**
 * Calls the management API (of the running service, or of one the command line starts for itself). A body given
 * as a string is JSON text sent as it is (an action's schema keeps the numbers and key order its file has).
 */
export type AdminRequest = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: Record<string, unknown> | string) => Promise<unknown>;

export type Options = Record<string, string | undefined>;

interface OptionSpec {
  name: string;
  /** What the value is, as the usage line shows it: `--name <name>`. */
  value: string;
  description: string;
  required?: boolean;
  /** The value names a file (`-`: standard input) holding JSON; the command receives the file's text. */
  jsonFile?: true;
  /** The value is the id (a UUID) of this kind of record, which this command lists: anything else is a usage error. */
  idOf?: { kind: string; listedBy: string };
}

export interface Command {
  summary: string;
  /** Commands that act on one tenant take `--tenant <name>` or `--tenant-id <id>`, exactly one of them. */
  tenant?: true;
  options: OptionSpec[];
  /** Options of which at least one must be given (what an update changes). */
  oneOf?: string[];
  /** The options part of the usage line, when the options are not each simply required or optional. */
  usage?: string;
  /** What the options must be together, beyond each one's own rules: throws a UsageError. */
  check?(options: Options): void;
  run(request: AdminRequest, options: Options): Promise<unknown>;
}

/** The command line was used wrongly (exit 2, with the usage). */
export class UsageError extends Error {}

/** The command was understood but cannot be done (exit 1): nothing found, a conflict, the API refused. */
export class CommandError extends Error {}

interface Tenant {
  id: string;
  name: string;
}

const TENANT_OPTIONS: OptionSpec[] = [
  { name: 'tenant', value: 'name', description: 'the tenant, by name (an error if several tenants share it)' },
  { name: 'tenant-id', value: 'id', description: 'the tenant, by id', idOf: { kind: 'tenant', listedBy: 'tenants:list' } },
];

const required = (options: Options, name: string): string => {
  const value = options[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
};

/**
 * Every item of a paged management list, page after page (`next_cursor`), as `{<key>: [...]}`: a command prints the
 * whole list, and a name or an id is looked for in all of it.
 */
async function listAll<T>(request: AdminRequest, path: string, key: string): Promise<Record<string, T[]>> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page = (await request('GET', cursor === null ? path : `${path}?cursor=${encodeURIComponent(cursor)}`)) as Record<string, unknown>;
    items.push(...(page[key] as T[]));
    cursor = (page.next_cursor as string | null | undefined) ?? null;
  } while (cursor !== null);
  return { [key]: items };
}

async function tenantsNamed(request: AdminRequest, name: string): Promise<Tenant[]> {
  const { tenants } = await listAll<Tenant>(request, '/tenants', 'tenants');
  return tenants.filter((tenant) => tenant.name === name);
}

/** The tenant's API path, from `--tenant-id`, or from `--tenant` looked up by name. */
async function tenantPath(request: AdminRequest, options: Options): Promise<string> {
  const byName = options.tenant;
  const byId = options['tenant-id'];
  if (byName && byId) throw new UsageError('give --tenant or --tenant-id, not both');
  if (byId) return `/tenants/${encodeURIComponent(byId)}`;
  if (!byName) throw new UsageError('--tenant <name> or --tenant-id <id> is required');
  const matches = await tenantsNamed(request, byName);
  if (matches.length === 0) throw new CommandError(`no tenant is named ${JSON.stringify(byName)}`);
  if (matches.length > 1) {
    const ids = matches.map((tenant) => tenant.id).join(', ');
    throw new CommandError(`${matches.length} tenants are named ${JSON.stringify(byName)}: choose one with --tenant-id (${ids})`);
  }
  return `/tenants/${matches[0].id}`;
}

/** A name the command line creates must be free, so that `--tenant <name>` finds exactly one tenant later. */
async function assertNameFree(request: AdminRequest, name: string): Promise<void> {
  const [existing] = await tenantsNamed(request, name);
  if (existing) {
    throw new CommandError(
      `a tenant named ${JSON.stringify(name)} already exists (${existing.id}): issue more credentials for it with ` +
        `api-tokens:create --tenant ${name} and hmac-keys:create --tenant ${name}`,
    );
  }
}

/** DELETE answers 204 with no body: print the revoked record, read back from the list. */
async function revoke(request: AdminRequest, collection: 'api-tokens' | 'hmac-keys', path: string, id: string): Promise<unknown> {
  await request('DELETE', `${path}/${collection}/${encodeURIComponent(id)}`);
  const key = collection === 'api-tokens' ? 'api_tokens' : 'hmac_keys';
  const list = await listAll<{ id: string }>(request, `${path}/${collection}`, key);
  const revoked = list[key].find((item) => item.id === id);
  return { [key.slice(0, -1)]: revoked };
}

const ACTION_NAME: OptionSpec = { name: 'name', value: 'name', description: "the action's name (lowercase letters, digits, underscores)", required: true };
const DESCRIPTION: OptionSpec = { name: 'description', value: 'text', description: 'what the action does, for the people and models choosing it' };
const WEBHOOK_URL: OptionSpec = { name: 'webhook-url', value: 'url', description: 'where the signed POST goes' };
const JSON_SCHEMA: OptionSpec = {
  name: 'json-schema',
  value: 'file',
  description: "a file holding the JSON Schema of the action's parameters (- reads standard input)",
  jsonFile: true,
};

/** `/tenants/{id}/actions/{name}`. */
async function actionPath(request: AdminRequest, options: Options): Promise<string> {
  return `${await tenantPath(request, options)}/actions/${encodeURIComponent(required(options, 'name'))}`;
}

/**
 * An action's create or update body: the given fields, and the schema file's JSON text as the file has it (parsing
 * and serializing it again could change a number, 1e400 or 0.1000000000000000055511151231257827).
 */
function actionBody(options: Options, fields: Record<string, string | undefined>): string {
  const members = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`);
  if (options['json-schema'] !== undefined) members.push(`"json_schema":${options['json-schema'].trim()}`);
  return `{${members.join(',')}}`;
}

const EXECUTION_ID: OptionSpec = {
  name: 'execution-id',
  value: 'id',
  description: "the execution's id (the webhook-id its receiver got)",
  idOf: { kind: 'execution', listedBy: 'executions:list' },
};
const ACTION_FILTER: OptionSpec = { name: 'action', value: 'name', description: "one action's, by its name" };
/** How often a bulk replay's progress is read while the command waits for it. */
const REPLAY_POLL_MS = 500;

/** `?name=value&...` of the options given, under the API's names; empty when none is. */
function query(options: Options, names: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const [option, parameter] of Object.entries(names)) if (options[option] !== undefined) params.set(parameter, options[option]!);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** One execution replayed: the action it ran is read from the execution first (the replay's route names it). */
async function replayOne(request: AdminRequest, tenant: string, id: string): Promise<unknown> {
  const { execution } = (await request('GET', `${tenant}/executions/${encodeURIComponent(id)}`)) as { execution: { action_name: string } };
  return request('POST', `${tenant}/actions/${encodeURIComponent(execution.action_name)}/executions/${encodeURIComponent(id)}/replay`);
}

interface BulkReplay {
  id: string;
  status: 'running' | 'done' | 'stopped';
}

/**
 * A bulk replay, followed to its end: it runs in the background of the service that took it, which is this
 * command's own copy when no service runs, and ends with the command.
 */
async function replayFailed(request: AdminRequest, action: string, since: string, until: string | undefined): Promise<unknown> {
  let { replay } = (await request('POST', `${action}/executions/replay`, { since, until })) as { replay: BulkReplay };
  while (replay.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, REPLAY_POLL_MS));
    ({ replay } = (await request('GET', `${action}/replays/${replay.id}`)) as { replay: BulkReplay });
  }
  return { replay };
}

/** The management operations, by name. Each is one or more admin API calls; its result is printed as JSON. */
export const COMMANDS: Record<string, Command> = {
  bootstrap: {
    summary: 'create a tenant with one API token and one HMAC key; prints {tenant, api_token, hmac_key}',
    options: [{ name: 'tenant', value: 'name', description: 'name of the new tenant (refused if a tenant already has it)', required: true }],
    async run(request, options) {
      const name = required(options, 'tenant');
      await assertNameFree(request, name);
      const { tenant } = (await request('POST', '/tenants', { name })) as { tenant: Tenant };
      const { api_token } = (await request('POST', `/tenants/${tenant.id}/api-tokens`, { name: 'bootstrap' })) as { api_token: unknown };
      const { hmac_key } = (await request('POST', `/tenants/${tenant.id}/hmac-keys`)) as { hmac_key: unknown };
      return { tenant, api_token, hmac_key };
    },
  },
  'tenants:list': { summary: 'list tenants (every page)', options: [], run: (request) => listAll(request, '/tenants', 'tenants') },
  'tenants:create': {
    summary: 'create a tenant (refused if a tenant already has the name)',
    options: [{ name: 'name', value: 'name', description: 'name of the new tenant', required: true }],
    async run(request, options) {
      const name = required(options, 'name');
      await assertNameFree(request, name);
      return request('POST', '/tenants', { name });
    },
  },
  'tenants:disable': {
    summary: 'disable a tenant: its API and bearer tokens stop working',
    tenant: true,
    options: [],
    run: async (request, options) => request('PATCH', await tenantPath(request, options), { status: 'disabled' }),
  },
  'tenants:enable': {
    summary: 'enable a tenant again',
    tenant: true,
    options: [],
    run: async (request, options) => request('PATCH', await tenantPath(request, options), { status: 'active' }),
  },
  'api-tokens:create': {
    summary: 'issue an API token (its value is shown once)',
    tenant: true,
    options: [
      { name: 'name', value: 'name', description: 'what the token is for', required: true },
      { name: 'expires-at', value: 'date-time', description: 'when it stops working, RFC 3339 (2027-01-31T00:00:00Z); default: never' },
    ],
    async run(request, options) {
      const body = { name: required(options, 'name'), expires_at: options['expires-at'] };
      return request('POST', `${await tenantPath(request, options)}/api-tokens`, body);
    },
  },
  'api-tokens:list': {
    summary: 'list API tokens (without their values; every page)',
    tenant: true,
    options: [],
    run: async (request, options) => listAll(request, `${await tenantPath(request, options)}/api-tokens`, 'api_tokens'),
  },
  'api-tokens:revoke': {
    summary: 'revoke an API token; prints it with its revoked_at',
    tenant: true,
    options: [{ name: 'token-id', value: 'id', description: 'the token to revoke', required: true, idOf: { kind: 'API token', listedBy: 'api-tokens:list' } }],
    run: async (request, options) => revoke(request, 'api-tokens', await tenantPath(request, options), required(options, 'token-id')),
  },
  'hmac-keys:create': {
    summary: 'create an HMAC key (its value is shown once)',
    tenant: true,
    options: [],
    run: async (request, options) => request('POST', `${await tenantPath(request, options)}/hmac-keys`),
  },
  'hmac-keys:list': {
    summary: 'list HMAC keys (without their values; every page)',
    tenant: true,
    options: [],
    run: async (request, options) => listAll(request, `${await tenantPath(request, options)}/hmac-keys`, 'hmac_keys'),
  },
  'hmac-keys:revoke': {
    summary: 'revoke an HMAC key; prints it with its revoked_at',
    tenant: true,
    options: [{ name: 'key-id', value: 'id', description: 'the key to revoke', required: true, idOf: { kind: 'HMAC key', listedBy: 'hmac-keys:list' } }],
    run: async (request, options) => revoke(request, 'hmac-keys', await tenantPath(request, options), required(options, 'key-id')),
  },
  'actions:list': {
    summary: "list a tenant's actions, ordered by name (every page)",
    tenant: true,
    options: [],
    run: async (request, options) => listAll(request, `${await tenantPath(request, options)}/actions`, 'actions'),
  },
  'actions:get': {
    summary: 'show one action',
    tenant: true,
    options: [ACTION_NAME],
    run: async (request, options) => request('GET', await actionPath(request, options)),
  },
  'actions:create': {
    summary: 'register an action (its webhook gets the signed test POST first, which must be answered 2xx)',
    tenant: true,
    options: [
      ACTION_NAME,
      { ...DESCRIPTION, required: true },
      { ...WEBHOOK_URL, required: true },
      { ...JSON_SCHEMA, required: true },
    ],
    async run(request, options) {
      const body = actionBody(options, { name: options.name, description: options.description, webhook_url: options['webhook-url'] });
      return request('POST', `${await tenantPath(request, options)}/actions`, body);
    },
  },
  'actions:update': {
    summary: "change an action's description, webhook URL and/or JSON Schema (a new URL or schema is tested first)",
    tenant: true,
    options: [ACTION_NAME, DESCRIPTION, WEBHOOK_URL, JSON_SCHEMA],
    oneOf: ['description', 'webhook-url', 'json-schema'],
    async run(request, options) {
      const body = actionBody(options, { description: options.description, webhook_url: options['webhook-url'] });
      return request('PUT', await actionPath(request, options), body);
    },
  },
  'actions:delete': {
    summary: 'delete an action and its execution log; prints the action as it was',
    tenant: true,
    options: [ACTION_NAME],
    async run(request, options) {
      const path = await actionPath(request, options);
      const { action } = (await request('GET', path)) as { action: unknown };
      await request('DELETE', path);
      return { deleted_action: action };
    },
  },
  'executions:list': {
    summary: "list a tenant's executions, newest first, with every attempt: a page of them (--cursor for the next)",
    tenant: true,
    options: [
      ACTION_FILTER,
      { name: 'status', value: 'status', description: 'succeeded or failed' },
      { name: 'since', value: 'date-time', description: 'created at or after, RFC 3339 (2026-11-27T10:00:00Z, 2026-11-27T11:00:00+01:00)' },
      { name: 'until', value: 'date-time', description: 'created before, RFC 3339' },
      { name: 'limit', value: 'n', description: 'how many (default 20, at most 100)' },
      { name: 'cursor', value: 'cursor', description: 'the next_cursor of the previous page, with the same filters' },
    ],
    async run(request, options) {
      const filters = { action: 'action', status: 'status', since: 'since', until: 'until', limit: 'limit', cursor: 'cursor' };
      return request('GET', `${await tenantPath(request, options)}/executions${query(options, filters)}`);
    },
  },
  'executions:get': {
    summary: 'show one execution: every attempt, what was sent and what came back',
    tenant: true,
    options: [{ ...EXECUTION_ID, required: true }],
    run: async (request, options) => request('GET', `${await tenantPath(request, options)}/executions/${encodeURIComponent(required(options, 'execution-id'))}`),
  },
  'executions:replay': {
    summary: "run an execution again with its parameters, or replay an action's failed executions since a time (waits for the end)",
    tenant: true,
    options: [
      { ...EXECUTION_ID, description: 'the execution to replay; prints the new execution, with replay_of' },
      { ...ACTION_FILTER, description: 'the action whose failed executions to replay' },
      { name: 'failed-since', value: 'date-time', description: 'replay those created at or after, RFC 3339 (at most 1,000); prints {replay} once it ends' },
      { name: 'until', value: 'date-time', description: 'and before, RFC 3339 (default: now)' },
    ],
    usage: '(--execution-id <id> | --action <name> --failed-since <date-time> [--until <date-time>])',
    check(options) {
      const one = options['execution-id'] !== undefined;
      const bulk = ['action', 'failed-since', 'until'].filter((name) => options[name] !== undefined);
      if (one && bulk.length > 0) throw new UsageError(`give --execution-id, or --action with --failed-since, not both (--${bulk[0]} was given)`);
      if (one) return;
      if (bulk.length === 0) throw new UsageError('give --execution-id <id>, or --action <name> with --failed-since <date-time>');
      if (options.action === undefined) throw new UsageError('--action <name> is required with --failed-since');
      if (options['failed-since'] === undefined) throw new UsageError('--failed-since <date-time> is required with --action');
    },
    async run(request, options) {
      const tenant = await tenantPath(request, options);
      const id = options['execution-id'];
      if (id !== undefined) return replayOne(request, tenant, id);
      return replayFailed(request, `${tenant}/actions/${encodeURIComponent(required(options, 'action'))}`, required(options, 'failed-since'), options.until);
    },
  },
  stats: {
    summary: "a tenant's numbers (executions, succeeded, failed, p50/p95 ms) per hour for 48 hours and per day, with each action's last 24 hours",
    tenant: true,
    options: [{ ...ACTION_FILTER, description: "one action's numbers, by its name" }],
    run: async (request, options) => request('GET', `${await tenantPath(request, options)}/stats${query(options, { action: 'action' })}`),
  },
  'portal-links:create': {
    summary: "make a single-use link that opens the console for the tenant's developers (valid PORTAL_LINK_TTL_SECONDS)",
    tenant: true,
    options: [],
    run: async (request, options) => request('POST', `${await tenantPath(request, options)}/portal-links`),
  },
};

/** Every option a command takes, the tenant choice and `--output` included. */
export function optionsOf(command: Command): OptionSpec[] {
  return [...(command.tenant ? TENANT_OPTIONS : []), ...command.options, OUTPUT_OPTION];
}

const OUTPUT_OPTION: OptionSpec = {
  name: 'output',
  value: 'file',
  description: 'write the JSON to a new file readable by you only (mode 0600) instead of printing it',
};
