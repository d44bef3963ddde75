import type { FastifyRequest } from 'fastify';
import { connectionOrigin, isOwnOrigin } from './request-origin';

/** A request as the connection it came on says: accepted on `localAddress`:`localPort`. */
const arrivedOn = (localAddress: string, localPort: number) => ({ raw: { socket: { localAddress, localPort } } }) as unknown as FastifyRequest;

describe('request origins', () => {
  it('names where the connection arrived, never what a header says', () => {
    expect(connectionOrigin(arrivedOn('127.0.0.1', 3000))).toBe('http://127.0.0.1:3000');
    expect(connectionOrigin(arrivedOn('::ffff:10.0.0.5', 8080))).toBe('http://10.0.0.5:8080');
    expect(connectionOrigin(arrivedOn('::1', 3000))).toBe('http://[::1]:3000');
  });

  it('takes the connection\'s origin, and on loopback its other names, same scheme and port', () => {
    const local = arrivedOn('127.0.0.1', 3000);
    for (const origin of ['http://127.0.0.1:3000', 'http://localhost:3000', 'http://LOCALHOST:3000', 'http://[::1]:3000']) expect(isOwnOrigin(origin, local, undefined)).toBe(true);
    for (const origin of ['http://127.0.0.1:3001', 'https://127.0.0.1:3000', 'http://127.0.0.2:3000', 'http://evil.example.com', 'http://evil.example.com:3000', 'null', '', 'file://', 'http://127.0.0.1:3000/path']) {
      expect(isOwnOrigin(origin, local, undefined)).toBe(false);
    }
    // A LAN address has no other names.
    const lan = arrivedOn('192.168.1.5', 3000);
    expect(isOwnOrigin('http://192.168.1.5:3000', lan, undefined)).toBe(true);
    expect(isOwnOrigin('http://localhost:3000', lan, undefined)).toBe(false);
  });

  it('takes PUBLIC_URL\'s origin (default port or not) and the extra origins given', () => {
    const behindProxy = arrivedOn('10.0.0.5', 3000);
    expect(isOwnOrigin('https://gateway.example.com', behindProxy, 'https://gateway.example.com')).toBe(true);
    expect(isOwnOrigin('https://gateway.example.com:443', behindProxy, 'https://Gateway.example.com')).toBe(true);
    expect(isOwnOrigin('http://gateway.example.com', behindProxy, 'https://gateway.example.com')).toBe(false);
    expect(isOwnOrigin('https://app.gateway.example.com', behindProxy, 'https://gateway.example.com')).toBe(false);
    expect(isOwnOrigin('https://agent.example.com', behindProxy, 'https://gateway.example.com', ['https://agent.example.com'])).toBe(true);
    expect(isOwnOrigin('https://other.example.com', behindProxy, 'https://gateway.example.com', ['https://agent.example.com'])).toBe(false);
    // A loopback PUBLIC_URL (docker-compose's default) answers to the other loopback names too.
    expect(isOwnOrigin('http://127.0.0.1:3000', arrivedOn('172.18.0.3', 3000), 'http://localhost:3000')).toBe(true);
  });
});
