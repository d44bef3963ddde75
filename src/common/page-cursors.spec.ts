import { randomBytes } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { PageCursors } from './page-cursors';

function cursorsWith(key: Buffer): PageCursors {
  return new PageCursors({ encryptionKey: key } as AppConfig);
}

describe('PageCursors', () => {
  const key = randomBytes(32);
  const cursors = cursorsWith(key);
  const tenant = '6f1c1d1e-0000-4000-8000-000000000001';
  const other = '6f1c1d1e-0000-4000-8000-000000000002';

  it('reads back the position it made, for the same list and scope', () => {
    const cursor = cursors.make('executions', tenant, ['2026-11-27T10:00:00.000Z', 'a1', 'ünï\u0000code']);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursors.read('executions', tenant, cursor)).toEqual(['2026-11-27T10:00:00.000Z', 'a1', 'ünï\u0000code']);
    // Another replica, with the same ENCRYPTION_KEY, reads it too.
    expect(cursorsWith(Buffer.from(key)).read('executions', tenant, cursor)).toEqual(['2026-11-27T10:00:00.000Z', 'a1', 'ünï\u0000code']);
  });

  it('refuses a cursor of another scope, another list or another key', () => {
    const cursor = cursors.make('executions', tenant, ['x']);
    expect(cursors.read('executions', other, cursor)).toBeUndefined();
    expect(cursors.read('api-tokens', tenant, cursor)).toBeUndefined();
    expect(cursorsWith(randomBytes(32)).read('executions', tenant, cursor)).toBeUndefined();
  });

  it('refuses an edited, truncated, re-spelled, made-up or oversized cursor', () => {
    const cursor = cursors.make('executions', tenant, ['abc']);
    const bytes = Buffer.from(cursor, 'base64url');
    const edited = Buffer.from(bytes);
    edited[2] ^= 1;
    const forged = Buffer.concat([Buffer.from('["zzz"]'), bytes.subarray(bytes.length - 16)]).toString('base64url');
    for (const bad of [
      edited.toString('base64url'),
      cursor.slice(0, -1),
      `${cursor}=`,
      `${cursor}.`,
      forged,
      Buffer.from('["abc"]').toString('base64url'),
      '',
      'not a cursor',
      'A'.repeat(5000),
    ]) {
      expect(cursors.read('executions', tenant, bad)).toBeUndefined();
    }
  });

  it('refuses a signed payload that is not a list of strings', () => {
    // Only this class writes payloads, but read() does not rely on it: sign arbitrary ones as a holder of the key could.
    const tag = (payload: string) => (cursors as unknown as { tag(list: string, scope: string, payload: Buffer): Buffer }).tag('x', tenant, Buffer.from(payload));
    const signedWith = (payload: string) => Buffer.concat([Buffer.from(payload), tag(payload)]).toString('base64url');
    expect(cursors.read('x', tenant, signedWith('{"a":1}'))).toBeUndefined();
    expect(cursors.read('x', tenant, signedWith('[1,2]'))).toBeUndefined();
    expect(cursors.read('x', tenant, signedWith('["a"]'))).toEqual(['a']);
  });
});
