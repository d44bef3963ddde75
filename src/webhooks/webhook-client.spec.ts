import { PassThrough } from 'node:stream';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { decodeBody, DISCARD_GRACE_MS, DISCARD_LIMIT_BYTES, discardBody, MAX_RESPONSE_BYTES } from './webhook-client';

describe('discardBody', () => {
  // Only the grace's timer is faked: the stream's own ticks run as they do.
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'performance', 'Date', 'hrtime'] }));
  afterEach(() => jest.useRealTimers());
  // A connection's body: not destroyed when read to its end (undici's reuses the socket), only when cut.
  const body = () => new PassThrough({ autoDestroy: false });
  const discard = (stream: PassThrough) => discardBody(stream as unknown as Dispatcher.ResponseData['body']);

  it('reads a short body that ends within the grace, though after the headers, and keeps the connection', async () => {
    const stream = body();
    stream.write('{"error":');
    const read = discard(stream);
    await jest.advanceTimersByTimeAsync(DISCARD_GRACE_MS - 10);
    stream.end('"busy"}');
    expect((await read)?.toString()).toBe('{"error":"busy"}');
    expect(stream.destroyed).toBe(false);
  });

  it('cuts a body still open at the grace, and gives back what came before', async () => {
    const stream = body();
    stream.write('<html>');
    const read = discard(stream);
    await jest.advanceTimersByTimeAsync(DISCARD_GRACE_MS);
    expect((await read)?.toString()).toBe('<html>');
    expect(stream.destroyed).toBe(true);
  });

  it('cuts a body past its limit at once', async () => {
    const stream = body();
    const read = discard(stream);
    stream.write(Buffer.alloc(DISCARD_LIMIT_BYTES - 1, 'a'));
    await new Promise(setImmediate);
    stream.write(Buffer.alloc(2, 'b'));
    expect((await read)?.length).toBe(DISCARD_LIMIT_BYTES - 1);
    expect(stream.destroyed).toBe(true);
  });
});

describe('decodeBody', () => {
  const answer = Buffer.from(JSON.stringify({ result: 'sunny', error: '' }));

  it.each([
    ['gzip', gzipSync(answer)],
    ['x-gzip', gzipSync(answer)],
    ['GZIP', gzipSync(answer)],
    ['br', brotliCompressSync(answer)],
    ['deflate', deflateSync(answer)],
    ['deflate', deflateRawSync(answer)],
  ])('undoes Content-Encoding %s', async (encoding, body) => {
    expect(await decodeBody(body, encoding)).toEqual(answer);
  });

  it.each([undefined, '', 'identity'])('leaves %j as it is', async (encoding) => {
    expect(await decodeBody(answer, encoding)).toBe(answer);
  });

  it.each([
    ['compress', answer],
    ['gzip, br', gzipSync(answer)],
    ['constructor', answer],
    ['gzip', Buffer.from('not gzip at all')],
  ])('finds no readable body under an encoding it cannot undo (%s)', async (encoding, body) => {
    expect(await decodeBody(body, encoding)).toBeUndefined();
  });

  it('decodes up to exactly 1 MB', async () => {
    const full = Buffer.alloc(MAX_RESPONSE_BYTES, 'a');
    expect((await decodeBody(gzipSync(full), 'gzip')) as Buffer).toHaveLength(MAX_RESPONSE_BYTES);
  });

  it.each([
    ['gzip', (data: Buffer) => gzipSync(data, { level: 9 })],
    ['br', (data: Buffer) => brotliCompressSync(data)],
    ['deflate', (data: Buffer) => deflateSync(data, { level: 9 })],
  ])('stops a %s decompression bomb at 1 MB of output, without inflating the rest', async (encoding, compress) => {
    const bomb = compress(Buffer.alloc(64 * 1024 * 1024)); // 64 MB of zeros: about 64 KB gzipped
    expect(bomb.length).toBeLessThan(MAX_RESPONSE_BYTES);
    const before = process.memoryUsage().rss;
    expect(await decodeBody(bomb, encoding)).toBe('too_large');
    expect(await decodeBody(compress(Buffer.alloc(MAX_RESPONSE_BYTES + 1, 'a')), encoding)).toBe('too_large');
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });
});
