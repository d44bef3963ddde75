import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a running service on this DATA_DIR can be reached, so the command line goes through it. */
interface RunningService {
  pid: number;
  url: string;
}

const FILE = 'service.json';

/**
 * Written to a file of its own, then renamed into place: a command line (or a test) reading the file while it is
 * written would otherwise find half of it, and take the service for absent.
 */
export function announceService(dataDir: string, port: number): void {
  const pending = join(dataDir, `${FILE}.${process.pid}.tmp`);
  writeFileSync(pending, JSON.stringify({ pid: process.pid, url: `http://127.0.0.1:${port}` }), { mode: 0o600 });
  renameSync(pending, join(dataDir, FILE));
}

export function withdrawService(dataDir: string): void {
  if (findRunningService(dataDir)?.pid === process.pid) unlinkSync(join(dataDir, FILE));
}

export function findRunningService(dataDir: string): RunningService | undefined {
  try {
    const service = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')) as RunningService;
    process.kill(service.pid, 0);
    return service;
  } catch {
    return undefined;
  }
}
