import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AppConfig } from '../src/config/app-config';
import { call } from './support/http';
import { childEnv, ServiceProcess } from './support/process';
import { startTestApp, testConfig } from './support/test-app';

const ROOT = resolve(__dirname, '..');

/** A port nothing listens on now (the kernel's pick, released). */
async function freePort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/** The quickstart's shell block, exactly as the README has it. */
function quickstart(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('```sh\n# 0. ');
  expect(start).toBeGreaterThan(0);
  return readme.slice(start + '```sh\n'.length, readme.indexOf('\n```', start));
}

/**
 * What a newcomer does first (issue 30): the README's quickstart, pasted as it is, on a port that is not 3000;
 * what the service says when it starts; `GET /`; a second `npm start` next to a running one.
 */
describe('the first hour (README quickstart, start-up, issue 30)', () => {
  it('runs the quickstart as written against a service started with PORT alone, on a port that is not 3000', async () => {
    const [port, receiverPort] = [await freePort(), await freePort()];
    const dataDir = mkdtempSync(join(tmpdir(), 'agw-quickstart-data-'));
    // A working directory of its own (the credentials file lands there), with the checkout's files beside it.
    const workDir = mkdtempSync(join(tmpdir(), 'agw-quickstart-'));
    for (const name of ['package.json', 'node_modules', 'dist', 'examples', 'scripts', 'packages']) symlinkSync(join(ROOT, name), join(workDir, name));
    const service = ServiceProcess.start({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' });
    try {
      await service.ready(dataDir, 90_000);
      const script = join(workDir, 'quickstart.sh');
      // The block, then the receiver it started in the background stops with it.
      writeFileSync(script, `${quickstart()}\nkill %1\n`);
      const run = spawnSync('bash', [script], {
        cwd: workDir,
        env: withoutGatewayUrl(childEnv({ PORT: String(port), RECEIVER_PORT: String(receiverPort), DATA_DIR: dataDir })),
        encoding: 'utf8',
        timeout: 120_000,
      });
      const output = run.stdout;
      expect([run.status, run.stderr]).toEqual([0, expect.not.stringMatching(/Error|EADDRINUSE|Invalid|refused/)]);
      expect(output).toContain('"name":"get_weather"');
      expect(output).toMatch(/"execution":\{[^}]*"status":"succeeded"/);
      expect(output).toContain('"result":"Weather in Oslo: sunny, 21 °C"');
      expect(output).toContain('mcp: get_weather -> ok: Weather in Oslo: sunny, 21 °C');
      expect(output).toContain('"description":"Weather, in Celsius"');
      expect(output.trimEnd().endsWith('204')).toBe(true);
      expect(JSON.parse(readFileSync(join(workDir, 'acme.credentials.json'), 'utf8')).tenant.name).toBe('acme');
    } finally {
      await service.stop();
    }
  }, 240_000); // a fresh embedded database, the block's dozen commands and the agent example, on a busy machine

  it('says where the console and the admin key are: a log line, and one plain line on a terminal', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agw-start-line-'));
    const env = childEnv({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', NODE_ENV: 'development' });
    const expected = (port: string) =>
      `Action Gateway is listening: console at http://127.0.0.1:${port}/console (admin key: ADMIN_API_KEY in secrets.json), API at http://127.0.0.1:${port}/api/v1/gateway`;
    // Piped (a log collector, a test): JSON lines only, the start line among them.
    const piped = spawn(process.execPath, [join(ROOT, 'dist/src/main.js')], { cwd: dataDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    piped.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    piped.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const port = new URL(await new ServiceProcessLike(piped, () => output).ready(dataDir)).port;
      await eventuallyHas(() => output, 'Action Gateway is listening');
      const lines = output.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.filter((line) => line.context === 'Start')).toEqual([expect.objectContaining({ level: 30, msg: expected(port) })]);
      // Nest's start-up chatter (a line per module and route) is debug now: a start says what matters, with a
      // line per migration a fresh database runs (their number grows with the schema's history).
      expect(lines.filter((line) => /Mapped \{|dependencies initialized|RoutesResolver/.test(String(line.msg)))).toEqual([]);
      expect(lines.filter((line) => line.context !== 'Database').length).toBeLessThan(10);
    } finally {
      piped.kill('SIGTERM');
      await new Promise((done) => piped.once('exit', done));
    }
    // On a terminal (util-linux's script gives it one): the same, as a plain line of its own.
    const onTerminal = spawn('script', ['-qec', `${process.execPath} ${join(ROOT, 'dist/src/main.js')}`, '/dev/null'], { cwd: dataDir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let shown = '';
    onTerminal.stdout.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    try {
      await eventuallyHas(() => shown, 'Action Gateway is listening');
      const port = /127\.0\.0\.1:(\d+)\/console/.exec(shown)![1];
      expect(shown.split(/\r?\n/)).toContain(expected(port));
    } finally {
      onTerminal.kill('SIGTERM');
      await new Promise((done) => onTerminal.once('exit', done));
    }
  }, 240_000); // two starts of the service

  it('leads GET / to the console outside production, and keeps / an unknown route in production', async () => {
    const development = await startTestApp();
    try {
      for (const method of ['GET', 'HEAD']) {
        const root = await fetch(`${development.baseUrl}/`, { method, redirect: 'manual' });
        expect([method, root.status, root.headers.get('location')]).toEqual([method, 302, '/console']);
      }
      // Followed, as a browser does: the console's page.
      const followed = await call(development.baseUrl, 'GET', '/');
      expect([followed.status, followed.text]).toEqual([200, expect.stringContaining('<div id="root">')]);
    } finally {
      await development.close();
    }
    const production = await startTestApp({ config: new AppConfig({ ...(await testConfig()), production: true }) });
    try {
      const root = await call(production.baseUrl, 'GET', '/');
      expect([root.status, root.body]).toEqual([404, { error: 'Not found' }]);
      expect((await call(production.baseUrl, 'POST', '/')).status).toBe(404);
    } finally {
      await production.close();
    }
  });

  describe('npm start next to a running service: stops before building, in the service\'s words', () => {
    const npmStart = (env: Record<string, string>) =>
      spawnSync('npm', ['start'], { cwd: ROOT, env: childEnv(env), encoding: 'utf8', timeout: 60_000 });

    it('on a port another process holds', async () => {
      const holder: Server = createServer();
      await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
      const { port } = holder.address() as AddressInfo;
      const built = statSync(join(ROOT, 'dist/src/main.js')).mtimeMs;
      try {
        const started = Date.now();
        const run = npmStart({ DATA_DIR: mkdtempSync(join(tmpdir(), 'agw-preflight-')), HOST: '127.0.0.1', PORT: String(port) });
        expect(run.status).toBe(1);
        expect(run.stderr).toContain(`Cannot start: 127.0.0.1:${port} is already in use by another process (set PORT, or HOST)\n`);
        expect(Date.now() - started).toBeLessThan(20_000);
        // The same line the service itself gives.
        const service = ServiceProcess.start({ DATA_DIR: mkdtempSync(join(tmpdir(), 'agw-preflight-')), HOST: '127.0.0.1', PORT: String(port) });
        await service.exit();
        expect(service.output.join('')).toBe(`Cannot start: 127.0.0.1:${port} is already in use by another process (set PORT, or HOST)\n`);
      } finally {
        await new Promise((done) => holder.close(done));
      }
      expect(statSync(join(ROOT, 'dist/src/main.js')).mtimeMs).toBe(built); // nothing was rebuilt
    });

    it('on a data directory a live process holds', () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'agw-preflight-'));
      // This test's own process stands for the running service.
      writeFileSync(join(dataDir, 'embedded-postgres.json'), JSON.stringify({ pid: process.pid, host: '127.0.0.1', port: 0 }));
      const run = npmStart({ DATA_DIR: dataDir, PORT: '0' });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        `Cannot start: the embedded database is in use by process ${process.pid} (another service on DATA_DIR ${dataDir}): stop that one or set another DATA_DIR\n`,
      );
    });

    it('with a PORT that is no number: the configuration\'s own line, before anything is built', () => {
      const built = statSync(join(ROOT, 'dist/src/main.js')).mtimeMs;
      const run = npmStart({ DATA_DIR: mkdtempSync(join(tmpdir(), 'agw-preflight-')), PORT: 'abc' });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^Configuration error: PORT must be a whole number from 0 to 65535, not "abc"\n(?!Configuration error)/);
      expect(statSync(join(ROOT, 'dist/src/main.js')).mtimeMs).toBe(built);
    });

    it('with configuration errors and a data directory a live process holds: every configuration problem, no lock line', () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'agw-preflight-'));
      writeFileSync(join(dataDir, 'embedded-postgres.json'), JSON.stringify({ pid: process.pid, host: '127.0.0.1', port: 0 }));
      const run = npmStart({ DATA_DIR: dataDir, PORT: 'abc', RATE_LIMIT_PER_HOUR: '-1' });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(
        /^Configuration error: PORT must be a whole number from 0 to 65535, not "abc"\nConfiguration error: RATE_LIMIT_PER_HOUR must be a whole number, at least 1, not "-1"\n/,
      );
      expect(run.stderr).not.toContain('Cannot start');
    });
  });
});

/** The quickstart reads GATEWAY_URL first: the test's service is found from PORT alone. */
function withoutGatewayUrl(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { GATEWAY_URL: _ignored, ...rest } = env;
  return rest;
}

/** Waits until `text()` contains `expected`. */
async function eventuallyHas(text: () => string, expected: string): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 20_000; await new Promise((done) => setTimeout(done, 50))) {
    if (text().includes(expected)) return;
  }
  throw new Error(`never said "${expected}": ${text()}`);
}

/** ServiceProcess.ready for a child started here (to read its stdout and stderr apart). */
class ServiceProcessLike {
  constructor(
    private readonly child: ReturnType<typeof spawn>,
    private readonly output: () => string,
  ) {}

  async ready(dataDir: string): Promise<string> {
    const file = join(dataDir, 'service.json');
    for (const started = Date.now(); Date.now() - started < 90_000; await new Promise((done) => setTimeout(done, 100))) {
      if (this.child.exitCode !== null) throw new Error(`service exited: ${this.output()}`);
      try {
        const announced = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; url: string };
        if (announced.pid === this.child.pid) return announced.url;
      } catch {
        // not yet
      }
    }
    throw new Error(`service not ready: ${this.output()}`);
  }
}
