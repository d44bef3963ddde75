import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { decodeBody, MAX_RESPONSE_BYTES } from './webhook-client';

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
