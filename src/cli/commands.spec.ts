import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import dockerignore from '@balena/dockerignore';
import { AdminRequest, COMMANDS, CommandError, UsageError } from './commands';
import { parseCommandLine, readJsonFiles } from './command-line';

const T1 = '6f1c0a52-9d3e-4b7a-8c21-0e5d4f3a2b11';
const T2 = '6f1c0a52-9d3e-4b7a-8c21-0e5d4f3a2b12';
const T9 = '6f1c0a52-9d3e-4b7a-8c21-0e5d4f3a2b19';
const TOKEN = '0c6b1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d';
const KEY = '1d7c2e3f-4a51-4b6c-9d7e-8f9a0b1c2d3e';

/** A management API in memory, enough for the command line's own logic (lookups, refusals, read-backs). */
function fakeApi(tenants: { id: string; name: string }[]) {
  const calls: string[] = [];
  const bodies: (string | undefined)[] = [];
  const request: AdminRequest = async (method, path, sent) => {
    calls.push(`${method} ${path}`);
    bodies.push(typeof sent === 'string' ? sent : sent && JSON.stringify(sent));
    const body = typeof sent === 'string' ? (JSON.parse(sent) as Record<string, unknown>) : sent;
    if (method === 'GET' && path === '/tenants') return { tenants };
    if (method === 'POST' && path === '/tenants') return { tenant: { id: 'new', name: body?.name } };
    if (method === 'POST' && path.endsWith('/api-tokens')) return { api_token: { id: TOKEN, token: 'agw_x' } };
    if (method === 'POST' && path.endsWith('/hmac-keys')) return { hmac_key: { id: KEY, key: 'whsec_x' } };
    if (method === 'POST' && path.endsWith('/portal-links')) return { portal_link: { url: 'http://localhost:3000/console/portal#token=agwp_x' } };
    if (method === 'DELETE') return undefined;
    if (method === 'GET' && path.endsWith('/api-tokens')) return { api_tokens: [{ id: TOKEN, revoked_at: '2026-01-01T00:00:00.000Z' }, { id: 'other' }] };
    if (method === 'GET' && path.endsWith('/hmac-keys')) return { hmac_keys: [{ id: KEY, revoked_at: '2026-01-01T00:00:00.000Z' }] };
    if (method === 'GET' && path.endsWith('/actions')) return { actions: [] };
    if (method === 'GET' && path.includes('/actions/')) return { action: { name: decodeURIComponent(path.split('/')[4]) } };
    if ((method === 'POST' || method === 'PUT') && path.includes('/actions')) return { action: body };
    if (method === 'PATCH') return { tenant: { id: path.split('/')[2], ...body } };
    throw new Error(`unexpected ${method} ${path}`);
  };
  return { request, calls, bodies };
}

const run = async (argv: string[], api: ReturnType<typeof fakeApi>, files: Record<string, string> = {}) => {
  const invocation = parseCommandLine(argv);
  if ('help' in invocation) throw new Error('help');
  const options = readJsonFiles(invocation.command, invocation.options, (path) => {
    if (!Object.hasOwn(files, path)) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
    return files[path];
  });
  return invocation.command.run(api.request, options);
};

describe('command line commands', () => {
  it('bootstraps a new tenant, and refuses a name that is taken instead of making a second one', async () => {
    const api = fakeApi([{ id: T1, name: 'acme' }]);
    expect(await run(['bootstrap', '--tenant', 'globex'], api)).toEqual({
      tenant: { id: 'new', name: 'globex' },
      api_token: { id: TOKEN, token: 'agw_x' },
      hmac_key: { id: KEY, key: 'whsec_x' },
    });
    await expect(run(['bootstrap', '--tenant', 'acme'], api)).rejects.toThrow(
      new CommandError(
        `a tenant named "acme" already exists (${T1}): issue more credentials for it with api-tokens:create --tenant acme and hmac-keys:create --tenant acme`,
      ),
    );
    await expect(run(['tenants:create', '--name', 'acme'], api)).rejects.toThrow('a tenant named "acme" already exists');
    expect(api.calls.filter((call) => call === 'POST /tenants')).toHaveLength(1);
  });

  it('finds a tenant by name wherever a tenant id is taken', async () => {
    const api = fakeApi([{ id: T1, name: 'acme' }, { id: T2, name: 'globex' }]);
    expect(await run(['tenants:disable', '--tenant', 'globex'], api)).toEqual({ tenant: { id: T2, status: 'disabled' } });
    await run(['api-tokens:create', '--tenant', 'acme', '--name', 'ci'], api);
    expect(api.calls).toContain(`POST /tenants/${T1}/api-tokens`);
    await run(['hmac-keys:list', '--tenant-id', T9], api);
    expect(api.calls).toContain(`GET /tenants/${T9}/hmac-keys`);
  });

  it('follows next_cursor through every page of a list, for names and for lists printed', async () => {
    const pages: Record<string, unknown> = {
      '/tenants': { tenants: [{ id: 't1', name: 'acme' }], next_cursor: 'c/2' },
      '/tenants?cursor=c%2F2': { tenants: [{ id: 't2', name: 'globex' }], next_cursor: null },
    };
    const calls: string[] = [];
    const request: AdminRequest = async (method, path) => {
      calls.push(`${method} ${path}`);
      if (method === 'GET' && path in pages) return pages[path];
      if (method === 'PATCH') return { tenant: { id: path.split('/')[2], status: 'disabled' } };
      throw new Error(`unexpected ${method} ${path}`);
    };
    const invoke = (argv: string[]) => run(argv, { request, calls, bodies: [] });
    expect(await invoke(['tenants:list'])).toEqual({ tenants: [{ id: 't1', name: 'acme' }, { id: 't2', name: 'globex' }] });
    expect(await invoke(['tenants:disable', '--tenant', 'globex'])).toEqual({ tenant: { id: 't2', status: 'disabled' } });
  });

  it('refuses an unknown or ambiguous tenant name', async () => {
    const api = fakeApi([{ id: T1, name: 'twin' }, { id: T2, name: 'twin' }]);
    await expect(run(['api-tokens:list', '--tenant', 'nobody'], api)).rejects.toThrow(new CommandError('no tenant is named "nobody"'));
    await expect(run(['api-tokens:list', '--tenant', 'twin'], api)).rejects.toThrow(
      new CommandError(`2 tenants are named "twin": choose one with --tenant-id (${T1}, ${T2})`),
    );
  });

  it('prints the revoked token or key as JSON', async () => {
    const api = fakeApi([{ id: T1, name: 'acme' }]);
    expect(await run(['api-tokens:revoke', '--tenant', 'acme', '--token-id', TOKEN], api)).toEqual({
      api_token: { id: TOKEN, revoked_at: '2026-01-01T00:00:00.000Z' },
    });
    expect(await run(['hmac-keys:revoke', '--tenant-id', T1, '--key-id', KEY], api)).toEqual({
      hmac_key: { id: KEY, revoked_at: '2026-01-01T00:00:00.000Z' },
    });
  });

  it('registers an action with the schema file sent as written, numbers and key order included', async () => {
    const api = fakeApi([{ id: T1, name: 'acme' }]);
    const schema = '{"type":"object","properties":{"n":{"type":"number","maximum":1e400,"multipleOf":0.1000000000000000055511151231257827}}}\n';
    await run(
      ['actions:create', '--tenant', 'acme', '--name', 'get_weather', '--description', 'Weather "now"', '--webhook-url', 'https://hooks.example.com/w', '--json-schema', 'schema.json'],
      api,
      { 'schema.json': schema },
    );
    expect(api.calls.at(-1)).toBe(`POST /tenants/${T1}/actions`);
    expect(api.bodies.at(-1)).toBe(`{"name":"get_weather","description":"Weather \\"now\\"","webhook_url":"https://hooks.example.com/w","json_schema":${schema.trim()}}`);
  });

  it('updates only what is given, and gets, lists and deletes actions by name', async () => {
    const api = fakeApi([{ id: T1, name: 'acme' }]);
    await run(['actions:update', '--tenant', 'acme', '--name', 'get_weather', '--webhook-url', 'https://hooks.example.com/v2'], api);
    expect(api.calls.at(-1)).toBe(`PUT /tenants/${T1}/actions/get_weather`);
    expect(api.bodies.at(-1)).toBe('{"webhook_url":"https://hooks.example.com/v2"}');
    await run(['actions:update', '--tenant-id', T1, '--name', 'get_weather', '--json-schema', '-'], api, { '-': ' {"type":"object"} ' });
    expect(api.bodies.at(-1)).toBe('{"json_schema":{"type":"object"}}');

    expect(await run(['actions:list', '--tenant', 'acme'], api)).toEqual({ actions: [] });
    expect(api.calls.at(-1)).toBe(`GET /tenants/${T1}/actions`);
    expect(await run(['actions:get', '--tenant-id', T1, '--name', 'a/b'], api)).toEqual({ action: { name: 'a/b' } });
    expect(api.calls.at(-1)).toBe(`GET /tenants/${T1}/actions/a%2Fb`);

    expect(await run(['actions:delete', '--tenant-id', T1, '--name', 'get_weather'], api)).toEqual({ deleted_action: { name: 'get_weather' } });
    expect(api.calls.slice(-2)).toEqual([`GET /tenants/${T1}/actions/get_weather`, `DELETE /tenants/${T1}/actions/get_weather`]);
  });

  it('refuses a schema file that cannot be read or is not JSON before anything is sent', async () => {
    const api = fakeApi([{ id: T1, name: 'acme' }]);
    const create = ['actions:create', '--tenant', 'acme', '--name', 'a', '--description', 'd', '--webhook-url', 'https://h.example.com', '--json-schema'];
    await expect(run([...create, 'missing.json'], api)).rejects.toThrow(new CommandError('cannot read --json-schema missing.json: ENOENT'));
    await expect(run([...create, 'bad.json'], api, { 'bad.json': '{"type":' })).rejects.toThrow(/^--json-schema bad\.json is not JSON: /);
    expect(api.calls).toEqual([]);
  });

  it("makes a tenant's portal link", async () => {
    const api = fakeApi([{ id: T1, name: 'acme' }]);
    expect(await run(['portal-links:create', '--tenant', 'acme'], api)).toEqual({ portal_link: { url: 'http://localhost:3000/console/portal#token=agwp_x' } });
    expect(api.calls.at(-1)).toBe(`POST /tenants/${T1}/portal-links`);
  });

  it('lists the delivery log a page at a time with the filters given, encoded (a + offset stays a +)', async () => {
    const calls: string[] = [];
    const request: AdminRequest = async (method, path) => {
      calls.push(`${method} ${path}`);
      if (path === '/tenants') return { tenants: [{ id: T1, name: 'acme' }] };
      return { executions: [{ id: 'e1' }], next_cursor: 'c/2+' };
    };
    const api = { request, calls, bodies: [] };
    expect(await run(['executions:list', '--tenant', 'acme'], api)).toEqual({ executions: [{ id: 'e1' }], next_cursor: 'c/2+' });
    expect(calls.at(-1)).toBe(`GET /tenants/${T1}/executions`);
    await run(
      ['executions:list', '--tenant-id', T1, '--action', 'get_weather', '--status', 'failed', '--since', '2026-11-28T21:34:30+02:00', '--until', '2026-11-29T00:00:00Z', '--limit', '5', '--cursor', 'c/2+'],
      api,
    );
    expect(calls.at(-1)).toBe(
      `GET /tenants/${T1}/executions?action=get_weather&status=failed&since=2026-11-28T21%3A34%3A30%2B02%3A00&until=2026-11-29T00%3A00%3A00Z&limit=5&cursor=c%2F2%2B`,
    );
  });

  it('gets one execution, replays one through its action, and gives the numbers', async () => {
    const calls: string[] = [];
    const request: AdminRequest = async (method, path) => {
      calls.push(`${method} ${path}`);
      if (method === 'GET' && path === `/tenants/${T1}/executions/${TOKEN}`) return { execution: { id: TOKEN, action_name: 'get_weather' } };
      if (method === 'POST') return { execution: { id: 'new', replay_of: TOKEN } };
      return { stats: { action_name: null } };
    };
    const api = { request, calls, bodies: [] };
    expect(await run(['executions:get', '--tenant-id', T1, '--execution-id', TOKEN], api)).toEqual({ execution: { id: TOKEN, action_name: 'get_weather' } });
    expect(await run(['executions:replay', '--tenant-id', T1, '--execution-id', TOKEN], api)).toEqual({ execution: { id: 'new', replay_of: TOKEN } });
    expect(calls.slice(-2)).toEqual([`GET /tenants/${T1}/executions/${TOKEN}`, `POST /tenants/${T1}/actions/get_weather/executions/${TOKEN}/replay`]);
    await run(['stats', '--tenant-id', T1], api);
    await run(['stats', '--tenant-id', T1, '--action', 'get_weather'], api);
    expect(calls.slice(-2)).toEqual([`GET /tenants/${T1}/stats`, `GET /tenants/${T1}/stats?action=get_weather`]);
  });

  it('replays the failed executions since a time and follows the replay to its end', async () => {
    const calls: string[] = [];
    const bodies: (string | undefined)[] = [];
    let polls = 0;
    const request: AdminRequest = async (method, path, body) => {
      calls.push(`${method} ${path}`);
      bodies.push(body === undefined ? undefined : JSON.stringify(body));
      if (method === 'POST') return { replay: { id: 'r1', status: 'running', done: 0 } };
      polls += 1;
      return { replay: { id: 'r1', status: polls < 2 ? 'running' : 'done', done: polls } };
    };
    const api = { request, calls, bodies };
    const done = await run(['executions:replay', '--tenant-id', T1, '--action', 'get_weather', '--failed-since', '2026-11-28T10:00:00Z'], api);
    expect(done).toEqual({ replay: { id: 'r1', status: 'done', done: 2 } });
    expect(calls).toEqual([
      `POST /tenants/${T1}/actions/get_weather/executions/replay`,
      `GET /tenants/${T1}/actions/get_weather/replays/r1`,
      `GET /tenants/${T1}/actions/get_weather/replays/r1`,
    ]);
    expect(bodies[0]).toBe('{"since":"2026-11-28T10:00:00Z"}');
    await run(['executions:replay', '--tenant-id', T1, '--action', 'get_weather', '--failed-since', '2026-11-28T10:00:00Z', '--until', '2026-11-28T11:00:00Z'], api);
    expect(bodies.at(-2)).toBe('{"since":"2026-11-28T10:00:00Z","until":"2026-11-28T11:00:00Z"}');
  });

  it('describes every command', () => {
    for (const command of Object.values(COMMANDS)) expect(command.summary).toMatch(/^[a-z]/);
  });
});

describe('parseCommandLine', () => {
  it.each([[[]], [['--help']], [['-h']], [['help']]])('gives the general help for %j', (argv) => {
    const invocation = parseCommandLine(argv);
    expect('help' in invocation && invocation.help).toContain('usage: npm run gateway -- <command> [options]');
  });

  it.each([[['help', 'bootstrap']], [['bootstrap', '--help']], [['bootstrap', '-h', '--tenant']]])('gives a command’s help for %j', (argv) => {
    const invocation = parseCommandLine(argv);
    expect('help' in invocation && invocation.help).toContain('usage: npm run gateway -- bootstrap --tenant <name> [--output <file>]');
  });

  it('shows the ways to call a command whose options go together', () => {
    const invocation = parseCommandLine(['executions:replay', '--help']);
    expect('help' in invocation && invocation.help).toContain(
      'usage: npm run gateway -- executions:replay (--tenant <name> | --tenant-id <id>) (--execution-id <id> | --action <name> --failed-since <date-time> [--until <date-time>]) [--output <file>]',
    );
  });

  it('shows optional options in brackets and the tenant choice as alternatives', () => {
    const invocation = parseCommandLine(['help', 'api-tokens:create']);
    expect('help' in invocation && invocation.help).toContain(
      'usage: npm run gateway -- api-tokens:create (--tenant <name> | --tenant-id <id>) --name <name> [--expires-at <date-time>] [--output <file>]',
    );
  });

  it.each([
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['tenant:list'], 'unknown command "tenant:list" (did you mean "tenants:list"?)'],
    [['bootsrap', '--tenant', 'a'], 'unknown command "bootsrap" (did you mean "bootstrap"?)'],
    [['hmac-keys-create'], 'unknown command "hmac-keys-create" (did you mean "hmac-keys:create"?)'],
    [['help', 'frobnicate'], 'unknown command "frobnicate"'],
    [['toString'], 'unknown command "toString"'],
    [['bootstrap'], '--tenant <name> is required'],
    [['bootstrap', '--tenant'], 'option --tenant needs a value'],
    [['bootstrap', '--tenant', 'a', '--colour', 'red'], 'unknown option --colour'],
    [['tenants:list', 'extra'], 'unexpected argument "extra"'],
    [['tenants:disable'], '--tenant <name> or --tenant-id <id> is required'],
    [['tenants:disable', '--tenant', 'a', '--tenant-id', 'b'], 'give --tenant or --tenant-id, not both'],
    [['api-tokens:revoke', '--tenant', 'a'], '--token-id <id> is required'],
    [['actions:update', '--tenant', 'a', '--name', 'n'], 'give at least one of --description, --webhook-url, --json-schema'],
    [['actions:create', '--tenant', 'a', '--name', 'n', '--description', 'd', '--webhook-url', 'u'], '--json-schema <file> is required'],
    [['portal-link:create'], 'unknown command "portal-link:create" (did you mean "portal-links:create"?)'],
    [['execution:list', '--tenant', 'a'], 'unknown command "execution:list" (did you mean "executions:list"?)'],
    [['executions:get', '--tenant', 'a'], '--execution-id <id> is required'],
    [['executions:replay', '--tenant', 'a'], 'give --execution-id <id>, or --action <name> with --failed-since <date-time>'],
    [['executions:replay', '--tenant', 'a', '--execution-id', TOKEN, '--failed-since', 'x'], 'give --execution-id, or --action with --failed-since, not both (--failed-since was given)'],
    [['executions:replay', '--tenant', 'a', '--failed-since', '2026-11-28T10:00:00Z'], '--action <name> is required with --failed-since'],
    [['executions:replay', '--tenant', 'a', '--action', 'n'], '--failed-since <date-time> is required with --action'],
    [['executions:replay', '--tenant', 'a', '--action', 'n', '--until', '2026-11-28T10:00:00Z'], '--failed-since <date-time> is required with --action'],
  ])('refuses %j as a usage error', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(new UsageError(message));
  });

  it.each([
    [['api-tokens:list', '--tenant-id', 'acme'], '"acme" is not a tenant id (ids are UUIDs): did you mean --tenant acme?'],
    [['actions:list', '--tenant-id', 'Acme Corp'], `"Acme Corp" is not a tenant id (ids are UUIDs): did you mean --tenant 'Acme Corp'?`],
    [['api-tokens:revoke', '--tenant', 'acme', '--token-id', 'ci'], '"ci" is not an API token id (ids are UUIDs: api-tokens:list shows them)'],
    [['hmac-keys:revoke', '--tenant', 'acme', '--key-id', '1a2b3c4d'], '"1a2b3c4d" is not an HMAC key id (ids are UUIDs: hmac-keys:list shows them)'],
    [['executions:get', '--tenant', 'acme', '--execution-id', 'e1'], '"e1" is not an execution id (ids are UUIDs: executions:list shows them)'],
  ])('refuses %j, a name or a short id where an id is expected, saying what was meant', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(new UsageError(message));
  });
});

describe('credentials files, in any folder', () => {
  const files = ['acme.credentials.json', 'ops/acme.credentials.json', 'a/b/acme.credentials.json'];
  const rules = (file: string) => readFileSync(join(__dirname, '../..', file), 'utf8');

  it('are kept out of git by .gitignore (a pattern without a slash matches in any folder)', () => {
    expect(rules('.gitignore').split('\n')).toContain('*.credentials.json');
  });

  it('are kept out of images by .dockerignore, read with Docker\'s own rules (a pattern matches from the top only)', () => {
    const kept = dockerignore({ ignorecase: false }).add(rules('.dockerignore')).createFilter();
    expect(files.filter(kept)).toEqual([]);
    expect(kept('src/main.ts')).toBe(true);
  });
});
