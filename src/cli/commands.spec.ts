import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import dockerignore from '@balena/dockerignore';
import { AdminRequest, COMMANDS, CommandError } from './commands';
import { parseCommandLine } from './command-line';

/** A management API in memory, enough for the command line's own logic (lookups, refusals, read-backs). */
function fakeApi(tenants: { id: string; name: string }[]) {
  const calls: string[] = [];
  const request: AdminRequest = async (method, path, body) => {
    calls.push(`${method} ${path}`);
    if (method === 'GET' && path === '/tenants') return { tenants };
    if (method === 'POST' && path === '/tenants') return { tenant: { id: 'new', name: body?.name } };
    if (method === 'POST' && path.endsWith('/api-tokens')) return { api_token: { id: 'tok', token: 'agw_x' } };
    if (method === 'POST' && path.endsWith('/hmac-keys')) return { hmac_key: { id: 'key', key: 'whsec_x' } };
    if (method === 'DELETE') return undefined;
    if (method === 'GET' && path.endsWith('/api-tokens')) return { api_tokens: [{ id: 'tok', revoked_at: '2026-01-01T00:00:00.000Z' }, { id: 'other' }] };
    if (method === 'GET' && path.endsWith('/hmac-keys')) return { hmac_keys: [{ id: 'key', revoked_at: '2026-01-01T00:00:00.000Z' }] };
    if (method === 'PATCH') return { tenant: { id: path.split('/')[2], ...body } };
    throw new Error(`unexpected ${method} ${path}`);
  };
  return { request, calls };
}

const run = (argv: string[], api: ReturnType<typeof fakeApi>) => {
  const invocation = parseCommandLine(argv);
  if ('help' in invocation) throw new Error('help');
  return invocation.command.run(api.request, invocation.options);
};

describe('command line commands', () => {
  it('bootstraps a new tenant, and refuses a name that is taken instead of making a second one', async () => {
    const api = fakeApi([{ id: 't1', name: 'acme' }]);
    expect(await run(['bootstrap', '--tenant', 'globex'], api)).toEqual({
      tenant: { id: 'new', name: 'globex' },
      api_token: { id: 'tok', token: 'agw_x' },
      hmac_key: { id: 'key', key: 'whsec_x' },
    });
    await expect(run(['bootstrap', '--tenant', 'acme'], api)).rejects.toThrow(
      new CommandError(
        'a tenant named "acme" already exists (t1): issue more credentials for it with api-tokens:create --tenant acme and hmac-keys:create --tenant acme',
      ),
    );
    await expect(run(['tenants:create', '--name', 'acme'], api)).rejects.toThrow('a tenant named "acme" already exists');
    expect(api.calls.filter((call) => call === 'POST /tenants')).toHaveLength(1);
  });

  it('finds a tenant by name wherever a tenant id is taken', async () => {
    const api = fakeApi([{ id: 't1', name: 'acme' }, { id: 't2', name: 'globex' }]);
    expect(await run(['tenants:disable', '--tenant', 'globex'], api)).toEqual({ tenant: { id: 't2', status: 'disabled' } });
    await run(['api-tokens:create', '--tenant', 'acme', '--name', 'ci'], api);
    expect(api.calls).toContain('POST /tenants/t1/api-tokens');
    await run(['hmac-keys:list', '--tenant-id', 't9'], api);
    expect(api.calls).toContain('GET /tenants/t9/hmac-keys');
  });

  it('refuses an unknown or ambiguous tenant name', async () => {
    const api = fakeApi([{ id: 't1', name: 'twin' }, { id: 't2', name: 'twin' }]);
    await expect(run(['api-tokens:list', '--tenant', 'nobody'], api)).rejects.toThrow(new CommandError('no tenant is named "nobody"'));
    await expect(run(['api-tokens:list', '--tenant', 'twin'], api)).rejects.toThrow(
      new CommandError('2 tenants are named "twin": choose one with --tenant-id (t1, t2)'),
    );
  });

  it('prints the revoked token or key as JSON', async () => {
    const api = fakeApi([{ id: 't1', name: 'acme' }]);
    expect(await run(['api-tokens:revoke', '--tenant', 'acme', '--token-id', 'tok'], api)).toEqual({
      api_token: { id: 'tok', revoked_at: '2026-01-01T00:00:00.000Z' },
    });
    expect(await run(['hmac-keys:revoke', '--tenant-id', 't1', '--key-id', 'key'], api)).toEqual({
      hmac_key: { id: 'key', revoked_at: '2026-01-01T00:00:00.000Z' },
    });
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
  ])('refuses %j as a usage error', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(message);
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
