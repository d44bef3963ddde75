// `npm start` (and `start:dev`) run this before building: a second start next to a running service used to rebuild
// dist/ under it (47 s on a loaded machine) before the service found the port or the data directory taken.
// These are the service's own first checks (src/main.ts, src/common/startup-failure.ts), in its words, made
// before anything is built; the service makes them again when it starts. Anything else (a PORT that is not a
// number, a HOST that names no address) is left to the service, which reports every configuration problem at once.
const { readFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { join, resolve } = require('node:path');

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
  if (!env.DATABASE_URL) {
    const dataDir = resolve(env.DATA_DIR ?? '.data');
    const pid = embeddedHolder(dataDir);
    if (pid !== undefined) {
      return `Cannot start: the embedded database is in use by process ${pid} (another service on DATA_DIR ${dataDir}): stop that one or set another DATA_DIR`;
    }
  }
  const port = env.PORT === undefined ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) return undefined;
  const host = env.HOST ?? '0.0.0.0';
  const error = await portProblem(host, port);
  const where = `${error?.address ?? host}:${port}`;
  if (error?.code === 'EADDRINUSE') return `Cannot start: ${where} is already in use by another process (set PORT, or HOST)`;
  if (error?.code === 'EACCES') return `Cannot start: not allowed to listen on ${where} (ports below 1024 need privileges: set PORT)`;
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
