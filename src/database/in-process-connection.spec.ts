import { once } from 'node:events';
import { InProcessEnd } from './in-process-connection';

const nextTicks = () => new Promise((resolve) => setImmediate(resolve));

describe('InProcessEnd (a socket-like connection inside the process)', () => {
  it('carries each end\'s writes to the other, in order, never inside the write itself', async () => {
    const [client, server] = InProcessEnd.pair();
    const atServer: string[] = [];
    const atClient: string[] = [];
    server.on('data', (chunk: Buffer) => atServer.push(chunk.toString()));
    client.on('data', (chunk: Buffer) => atClient.push(chunk.toString()));
    client.write('one');
    client.cork();
    client.write('two');
    client.write('three');
    client.uncork();
    server.write('answer');
    expect([atServer, atClient]).toEqual([[], []]); // a socket's data arrives later, not during write()
    await nextTicks();
    expect([atServer, atClient]).toEqual([['one', 'two', 'three'], ['answer']]);
  });

  it('connects as a socket does: connect() is answered with a connect event, and the socket methods are there', async () => {
    const [client] = InProcessEnd.pair();
    const connected = once(client, 'connect');
    expect(client.connect().setNoDelay().setKeepAlive().ref().unref()).toBe(client);
    await connected;
    expect([client.remoteAddress, client.remotePort]).toEqual(['in-process', 0]);
  });

  it('ends the other end\'s reads when one ends its writes, and then closes both, as a TCP connection does', async () => {
    const [client, server] = InProcessEnd.pair();
    const events: string[] = [];
    for (const [name, end] of [['client', client], ['server', server]] as const) {
      end.on('data', () => undefined);
      end.on('end', () => events.push(`${name} end`));
      end.on('close', () => events.push(`${name} close`));
    }
    client.end('bye');
    await Promise.all([once(client, 'close'), once(server, 'close')]);
    expect(events).toEqual(expect.arrayContaining(['server end', 'client end', 'server close', 'client close']));
    expect(server.writable).toBe(false);
  });

  it('destroys the other end with it', async () => {
    const [client, server] = InProcessEnd.pair();
    const received: Buffer[] = [];
    client.on('data', (chunk: Buffer) => received.push(chunk));
    server.on('error', () => undefined);
    const closed = once(client, 'close');
    server.destroy();
    await closed;
    expect([client.destroyed, server.destroyed, received]).toEqual([true, true, []]);
  });
});

describe('InProcessEnd, as a socket would at its edges', () => {
  it('delivers what was written and ended before a destroy in the same tick, then closes', async () => {
    const [client, server] = InProcessEnd.pair();
    const received: string[] = [];
    client.on('data', (chunk: Buffer) => received.push(chunk.toString()));
    const closed = once(client, 'close');
    server.write('last answer');
    server.end();
    server.destroy();
    await closed;
    expect(received).toEqual(['last answer']);
  });

  it('refuses to connect, with ECONNREFUSED, when made refused', async () => {
    const end = InProcessEnd.refused('the embedded database has stopped');
    const failed = once(end, 'error');
    end.connect();
    const [error] = (await failed) as [NodeJS.ErrnoException];
    expect([error.code, error.message]).toEqual(['ECONNREFUSED', 'connect ECONNREFUSED (the embedded database has stopped)']);
  });
});
