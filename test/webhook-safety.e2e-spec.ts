import net from 'node:net';
import tls from 'node:tls';
import { DataSource } from 'typeorm';
import { DnsResolver } from '../src/webhooks/dns-resolver';
import { actionBody, createTenant, gateway, TestTenant } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Production posture (https only, no private destinations) with DNS answered by the test. No test here lets a
 * packet leave: every destination is refused before a socket is opened, which the spies on net/tls prove.
 */
describe('outbound safety at registration (contract "Actions": webhook_url)', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  const answers = new Map<string, string[]>();
  const resolver: DnsResolver = {
    resolve: async (hostname: string) => {
      const addresses = answers.get(hostname);
      if (!addresses) throw Object.assign(new Error(`no such host ${hostname}`), { code: 'ENOTFOUND' });
      return addresses.map((address) => ({ address, family: net.isIP(address) }));
    },
  };
  let connects: jest.SpyInstance[];

  beforeAll(async () => {
    testApp = await startTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', WEBHOOK_REQUIRE_HTTPS: 'true' },
      override: (builder) => builder.overrideProvider(DnsResolver).useValue(resolver),
    });
    tenant = await createTenant(testApp);
  });
  afterAll(() => testApp.close());
  beforeEach(() => {
    connects = [jest.spyOn(net, 'connect'), jest.spyOn(tls, 'connect')];
  });
  afterEach(() => {
    for (const spy of connects) expect(spy).not.toHaveBeenCalled();
    jest.restoreAllMocks();
  });

  const register = (url: string) => gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(url) });

  /**
   * Stand-ins for net/tls.connect that run only the lookup undici hands them (where the guard sits) and then
   * fail, so the connect-time check runs exactly as in production and no socket is ever opened.
   */
  function onlyLookups(hostname: string): void {
    connects[0].mockImplementation(((options: net.NetConnectOpts & { lookup?: net.LookupFunction }) => {
      const socket = new net.Socket();
      options.lookup?.(hostname, { family: 0, all: false }, (error) => {
        process.nextTick(() => socket.destroy(error ?? new Error('test stops here')));
      });
      return socket;
    }) as never);
    connects[1].mockImplementation(((options: tls.ConnectionOptions & { lookup?: net.LookupFunction }) => {
      const socket = new tls.TLSSocket(new net.Socket());
      options.lookup?.(hostname, { family: 0, all: false }, (error) => {
        process.nextTick(() => socket.destroy(error ?? new Error('test stops here')));
      });
      return socket;
    }) as never);
  }

  /** An action stored as if registered before, so its execution meets the connect-time check alone. */
  async function storedAction(webhookUrl: string): Promise<string> {
    const name = `stored_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    await testApp.app.get(DataSource).query(
      `INSERT INTO actions (id, tenant_id, name, description, json_schema, webhook_url, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, $2, 'd', '{"type":"object"}', $3, now(), now())`,
      [tenant.tenantId, name, webhookUrl],
    );
    return name;
  }

  it('refuses plain http', async () => {
    const response = await register('http://hooks.example.com/run');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid request', details: 'webhook_url: must use https' });
  });

  it.each([
    ['https://127.0.0.1/hook', '127.0.0.1'],
    ['https://10.1.2.3/hook', '10.1.2.3'],
    ['https://172.16.0.1/hook', '172.16.0.1'],
    ['https://192.168.1.1/hook', '192.168.1.1'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['https://100.64.0.1/', '100.64.0.1'],
    ['https://0.0.0.0/', '0.0.0.0'],
    ['https://224.0.0.1/', '224.0.0.1'],
    ['https://2130706433/', '127.0.0.1'],
    ['https://0x7f000001/', '127.0.0.1'],
    ['https://0177.0.0.1/', '127.0.0.1'],
    ['https://127.1/', '127.0.0.1'],
    ['https://[::1]/hook', '::1'],
    ['https://[fe80::1]/', 'fe80::1'],
    ['https://[fd00:ec2::254]/', 'fd00:ec2::254'],
    ['https://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['https://[::127.0.0.1]/', '::7f00:1'],
    ['https://[::8.8.8.8]/', '::808:808'],
    ['https://[64:ff9b::a00:1]/', '64:ff9b::a00:1'],
  ])('refuses %s, a literal private or reserved address', async (url, address) => {
    const response = await register(url);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid request', details: `webhook_url: resolves to a private or reserved address (${address})` });
  });

  it('refuses a name that resolves to a private address', async () => {
    answers.set('internal.example.com', ['93.184.215.14', '10.0.0.7']);
    const response = await register('https://internal.example.com/hook');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid request', details: 'webhook_url: resolves to a private or reserved address (10.0.0.7)' });
  });

  it('refuses at connect time a name that re-resolves to a private address after the check (DNS rebinding)', async () => {
    let lookups = 0;
    answers.delete('rebind.example.com');
    const rebinding: DnsResolver['resolve'] = async () => {
      lookups += 1;
      return [{ address: lookups === 1 ? '93.184.215.14' : '169.254.169.254', family: 4 }];
    };
    jest.spyOn(resolver, 'resolve').mockImplementation(rebinding);
    onlyLookups('rebind.example.com');

    const response = await register('https://rebind.example.com/hook');

    expect(lookups).toBe(2);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'action validation failed: webhook endpoint unreachable (destination 169.254.169.254 is not allowed)' });
    // The stand-ins were called (that is how the lookup ran) but opened nothing.
    connects.forEach((spy) => spy.mockClear());
  });

  it('refuses at execution a name that now resolves to a private address, without retrying', async () => {
    answers.set('moved.example.com', ['10.20.30.40']);
    const name = await storedAction('https://moved.example.com/hook');
    onlyLookups('moved.example.com');
    const lookups = jest.spyOn(resolver, 'resolve');

    const response = await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, body: { parameters: {} } });

    expect(response.status).toBe(200);
    expect(response.body.execution).toMatchObject({
      status: 'failed',
      http_status: null,
      error: 'webhook endpoint unreachable (destination 10.20.30.40 is not allowed)',
      attempts: 1,
    });
    expect(lookups).toHaveBeenCalledTimes(1);
    connects.forEach((spy) => spy.mockClear());
  });

  it('refuses at execution a literal private address before any connect', async () => {
    const name = await storedAction('https://169.254.169.254/latest/meta-data');
    const response = await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, body: { parameters: {} } });
    expect(response.body.execution).toMatchObject({ status: 'failed', error: 'webhook endpoint unreachable (destination 169.254.169.254 is not allowed)', attempts: 1 });
  });
});
