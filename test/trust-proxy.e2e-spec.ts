import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, TestApp } from './support/test-app';

/**
 * TRUST_PROXY behind one proxy that appends the address it sees to X-Forwarded-For (as nginx's
 * `$proxy_add_x_forwarded_for` and most load balancers do). Clients connect from distinct loopback addresses
 * (127.0.0.2, 127.0.0.3: all of 127/8 is this machine) and write whatever X-Forwarded-For they like.
 */
describe('client address behind an appending proxy (TRUST_PROXY)', () => {
  let proxy: Server;
  let target = '';

  beforeAll(async () => {
    proxy = createServer((incoming, outgoing) => {
      const written = incoming.headers['x-forwarded-for'];
      const seen = incoming.socket.remoteAddress ?? '';
      const headers: IncomingHttpHeaders = { ...incoming.headers, 'x-forwarded-for': written ? `${written}, ${seen}` : seen };
      const { hostname, port } = new URL(target);
      const upstream = request({ host: hostname, port, path: incoming.url, method: incoming.method, headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      incoming.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

  /** A token exchange through the proxy from `client`, claiming to be `claimed` in X-Forwarded-For. */
  const exchange = (client: string, claimed?: string) =>
    new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ api_token: 'agw_guess' });
      const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(body.length) };
      if (claimed) headers['x-forwarded-for'] = claimed;
      const port = (proxy.address() as AddressInfo).port;
      const sent = request({ host: '127.0.0.1', port, localAddress: client, method: 'POST', path: '/api/v1/gateway/token/exchange', headers, agent: false }, (answer) => {
        answer.resume();
        answer.on('end', () => resolve(answer.statusCode ?? 0));
      });
      sent.on('error', reject);
      sent.end(body);
    });

  it.each([
    ['a hop count', '1'],
    ['the proxy address', '127.0.0.1'],
  ])('with %s, a client cannot escape the per-address exchange limit by writing X-Forwarded-For', async (_name, trustProxy) => {
    const app: TestApp = await startTestApp({ env: { TRUST_PROXY: trustProxy, TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE: '3' } });
    target = app.baseUrl;
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push(await exchange('127.0.0.2', `198.51.100.${i}, 203.0.113.${i}`));
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      // Another client, even one claiming the first client's address, has its own budget.
      expect(await exchange('127.0.0.3', '127.0.0.2')).toBe(401);
      expect(await exchange('127.0.0.3')).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('without TRUST_PROXY, every client behind the proxy is the proxy', async () => {
    const app: TestApp = await startTestApp({ env: { TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE: '2' } });
    target = app.baseUrl;
    try {
      expect([await exchange('127.0.0.2'), await exchange('127.0.0.3'), await exchange('127.0.0.4')]).toEqual([401, 401, 429]);
    } finally {
      await app.close();
    }
  });
});
