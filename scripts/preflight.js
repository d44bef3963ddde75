// `npm start` (and `start:dev`) run this before building: a second start next to a running service used to rebuild
// dist/ under it (47 s on a loaded machine) before the service found the port or the data directory taken, and a
// PORT that is no number was said only after the whole build.
// These are the service's own first checks (src/main.ts, src/common/startup-failure.ts), in its words, made
// before anything is built; the service makes them again when it starts. The configuration comes first, checked
// by the service's own code (src/config/load-config.ts, compiled in memory by swc, as the tests are), so every
// problem with it is listed at once and no lock or port message hides one.
const { readFileSync } = require('node:fs');
const Module = require('node:module');
const { createServer } = require('node:net');
const { join, resolve } = require('node:path');

const ROOT = resolve(__dirname, '..');

/**
 * The configuration's problems, one `Configuration error: ...` line each, as the service prints them; undefined
 * when there are none. checkEnvironment reads and writes no file (secrets are generated later, by the service).
 */
function configurationProblems(env) {
  compileTypeScriptOnRequire();
  const { checkEnvironment } = require(join(ROOT, 'src/config/load-config.ts'));
  try {
    checkEnvironment(env);
    return undefined;
  } catch (error) {
    if (error?.name === 'ConfigError') return error.message;
    throw error;
  }
}

/** `require` of a .ts file compiles it with swc (a development dependency, as the build's tsc is), decorators as tsc does. */
function compileTypeScriptOnRequire() {
  const { transformSync } = require('@swc/core');
  Module._extensions['.ts'] = (module, filename) => {
    const { code } = transformSync(readFileSync(filename, 'utf8'), {
      filename,
      jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    module._compile(code, filename);
  };
}

/** The process holding the embedded database in `dataDir` (its lock file names it), if it is alive. */
function embeddedHolder(dataDir) {
  try {
    const { pid } = JSON.parse(readFileSync(join(dataDir, 'embedded-postgres.json'), 'utf8'));
    if (typeof pid !== 'number' || pid === process.pid) return undefined;
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/** Binds and releases the port; resolves with the listen error the service would get, or nothing. */
function portProblem(host, port) {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', (error) => done(error));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => done(undefined)));
  });
}

async function main() {
  const env = process.env;
  const configuration = configurationProblems(env);
  if (configuration) return configuration;
  if (!env.DATABASE_URL) {
    const dataDir = resolve(env.DATA_DIR ?? '.data');
    const pid = embeddedHolder(dataDir);
    if (pid !== undefined) {
      return `Cannot start: the embedded database is in use by process ${pid} (another service on DATA_DIR ${dataDir}): stop that one or set another DATA_DIR`;
    }
  }
  // Valid by now: whole numbers in range, or unset (an empty value is unset, as the service reads it).
  const port = env.PORT ? Number(env.PORT) : 3000;
  const host = env.HOST || '0.0.0.0';
  if (port !== 0) {
    const error = await portProblem(host, port);
    const where = `${error?.address ?? host}:${port}`;
    if (error?.code === 'EADDRINUSE') return `Cannot start: ${where} is already in use by another process (set PORT, or HOST)`;
    if (error?.code === 'EACCES') return `Cannot start: not allowed to listen on ${where} (ports below 1024 need privileges: set PORT)`;
  }
  const embeddedPort = env.EMBEDDED_DATABASE_PORT ? Number(env.EMBEDDED_DATABASE_PORT) : 0;
  if (!env.DATABASE_URL && embeddedPort !== 0) {
    const error = await portProblem('127.0.0.1', embeddedPort);
    if (error?.code === 'EADDRINUSE') {
      return `Cannot start: the embedded database's port 127.0.0.1:${embeddedPort} is already in use by another process (set another EMBEDDED_DATABASE_PORT, or unset it for a free one)`;
    }
  }
  return undefined;
}

main().then(
  (problem) => {
    if (!problem) return;
    console.error(problem);
    process.exit(1);
  },
  (error) => {
    // The check is a courtesy: whatever goes wrong in it, the service checks again.
    console.error(`preflight skipped: ${error.message}`);
  },
);
