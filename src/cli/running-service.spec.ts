import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { announceService, findRunningService, withdrawService } from './running-service';

// Every path the module writes to, with the real file system underneath.
const written: string[] = [];
jest.mock('node:fs', () => {
  const actual = jest.requireActual<typeof import('node:fs')>('node:fs');
  return { ...actual, writeFileSync: (...args: Parameters<typeof actual.writeFileSync>) => (written.push(String(args[0])), actual.writeFileSync(...args)) };
});

describe('the running service announced in DATA_DIR', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'agw-announce-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('appears whole or not at all: written beside, then renamed into place, readable by its owner only', () => {
    announceService(dataDir, 4321);
    // Never written in place, where a reader could find half of it.
    expect(written).toHaveLength(1);
    expect(written).not.toContain(join(dataDir, 'service.json'));
    expect(readdirSync(dataDir)).toEqual(['service.json']);
    expect(statSync(join(dataDir, 'service.json')).mode & 0o777).toBe(0o600);
    expect(findRunningService(dataDir)).toEqual({ pid: process.pid, url: 'http://127.0.0.1:4321' });
    withdrawService(dataDir);
    expect(readdirSync(dataDir)).toEqual([]);
  });
});
