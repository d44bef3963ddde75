import { ConfigError } from '../config/config.error';
import { EmbeddedDatabaseInUseError, EmbeddedDatabasePortError } from '../database/embedded-postgres';
import { describeStartupFailure, namingHost } from './startup-failure';

const listenError = (code: string) => Object.assign(new Error(`listen ${code}`), { code, syscall: 'listen', address: '127.0.0.1', port: 3000 });

describe('describeStartupFailure', () => {
  it.each([
    [new ConfigError([{ variable: 'PORT', problem: 'is wrong' }]), 'Configuration error: PORT is wrong'],
    [
      new EmbeddedDatabaseInUseError({ pid: 42, host: '127.0.0.1', port: 5000 }, '/srv/data'),
      'Cannot start: the embedded database is in use by process 42 (another service on DATA_DIR /srv/data): stop that one or set another DATA_DIR',
    ],
    [
      new EmbeddedDatabasePortError(55432, 'EADDRINUSE'),
      "Cannot start: the embedded database's port 127.0.0.1:55432 is already in use by another process (set another EMBEDDED_DATABASE_PORT, or unset it for a free one)",
    ],
    [listenError('EADDRINUSE'), 'Cannot start: 127.0.0.1:3000 is already in use by another process (set PORT, or HOST)'],
    [listenError('EACCES'), 'Cannot start: not allowed to listen on 127.0.0.1:3000 (ports below 1024 need privileges: set PORT)'],
    [listenError('EADDRNOTAVAIL'), 'Cannot start: 127.0.0.1 is not an address of this machine (set HOST)'],
    [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      'Cannot start: the database does not answer (connect ECONNREFUSED 127.0.0.1:5432): check DATABASE_URL',
    ],
    [
      Object.assign(new Error('database "gatewy" does not exist'), { code: '3D000', severity: 'FATAL' }),
      'Cannot start: the database refused the connection (database "gatewy" does not exist): check DATABASE_URL',
    ],
    [Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }), 'Cannot start: the database does not answer (write EPIPE): check DATABASE_URL'],
  ])('says in one line what to fix for %s', (error, line) => {
    expect(describeStartupFailure(error)).toBe(line);
  });

  it('leaves anything else to be printed with its stack', () => {
    expect(describeStartupFailure(new TypeError('x is undefined'))).toBeUndefined();
    expect(describeStartupFailure(undefined)).toBeUndefined();
  });
});

describe('namingHost', () => {
  it('turns a name that does not resolve into one HOST line, and leaves every other failure alone', async () => {
    const unresolved = Object.assign(new Error('getaddrinfo ENOTFOUND gateway.invalid'), { syscall: 'getaddrinfo', code: 'ENOTFOUND' });
    const failure = await namingHost('gateway.invalid', Promise.reject(unresolved)).catch((error: unknown) => error);
    expect(describeStartupFailure(failure)).toBe('Configuration error: HOST must be an address of this machine or a name for one, not "gateway.invalid" (ENOTFOUND)');
    const taken = Object.assign(new Error('listen EADDRINUSE'), { syscall: 'listen', code: 'EADDRINUSE' });
    await expect(namingHost('127.0.0.1', Promise.reject(taken))).rejects.toBe(taken);
    await expect(namingHost('127.0.0.1', Promise.resolve('up'))).resolves.toBe('up');
  });
});
