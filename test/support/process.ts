import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
export const MAIN = join(ROOT, 'dist/src/main.js');
export const CLI = join(ROOT, 'dist/src/cli/gateway.js');

/** The environment of a child process: ours minus anything that would point it at the test database. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.JEST_WORKER_ID;
  return { ...base, LOG_LEVEL: 'warn', ...env };
}

/** How long ready() waits by default for a service to start: a fresh embedded database is slow to create on a busy machine. */
export const READY_MS = 90_000;
/** A jest timeout for a test (or hook) that starts one service and waits for it: the start, and room for the rest. */
export const READY_TEST_MS = 2 * READY_MS;

/** The built service (`npm run start:prod`) in a child process, as an operator runs it. */
export class ServiceProcess {
  readonly output: string[] = [];
  private exited?: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    this.exited = new Promise((done) => child.on('exit', (code, signal) => done({ code, signal })));
  }

  static start(env: Record<string, string>): ServiceProcess {
    if (!existsSync(MAIN)) throw new Error('dist/ is missing: npm test builds it first (pretest)');
    return new ServiceProcess(spawn(process.execPath, [MAIN], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }));
  }

  /**
   * Resolves with the service URL once it has announced itself in DATA_DIR/service.json. The default wait covers
   * a start on a fresh DATA_DIR (the embedded database's first migrations) on a loaded 2-core machine; a test that
   * waits for it needs a jest timeout past it (READY_TEST_MS).
   */
  async ready(dataDir: string, timeoutMs = READY_MS): Promise<string> {
    const file = join(dataDir, 'service.json');
    for (const started = Date.now(); Date.now() - started < timeoutMs; await new Promise((r) => setTimeout(r, 100))) {
      if (this.child.exitCode !== null) throw new Error(`service exited: ${this.output.join('')}`);
      if (existsSync(file)) {
        const announced = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; url: string };
        if (announced.pid === this.child.pid) return announced.url;
      }
    }
    throw new Error(`service not ready after ${timeoutMs} ms: ${this.output.join('')}`);
  }

  exit(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return this.exited!;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    await this.exit();
  }
}

/** Runs the command line (`npm run gateway -- ...`) to completion. */
export function runCli(args: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { env: childEnv(env), encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * runCli without blocking this process: for commands that reach something the test itself serves (a webhook
 * receiver that an action's registration test calls), which a synchronous run would leave unanswered.
 */
export function runCliAsync(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  return new Promise((done) =>
    child.on('close', (status) => done({ status, stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString() })),
  );
}

/** Runs a TypeORM migration command (`npm run migration:show`, ...) on the built data source to completion. */
export function runMigrationCommand(command: string, env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const cli = join(ROOT, 'node_modules/typeorm/cli.js');
  const result = spawnSync(process.execPath, [cli, command, '-d', join(ROOT, 'dist/ormconfig.js')], {
    env: childEnv(env),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
