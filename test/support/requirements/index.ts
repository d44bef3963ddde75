import { spawnSync } from 'node:child_process';

// A folder of its own, importing nothing from src/: unit specs beside the code use it too, and the dependency
// check (.dependency-cruiser.cjs) forbids folder cycles such as src/webhooks -> test/support -> src/webhooks.

/**
 * Something a suite needs from the machine beyond Node and the database (a Redis server, the openssl command).
 * When it is missing the suite is skipped visibly (jest lists its tests as skipped, the title says why), unless
 * `REQUIRE_<NAME>=1` says this machine must have it (CI sets it): then the suite fails instead.
 */
export interface Requirement {
  /** `REDIS` in `REQUIRE_REDIS`. */
  name: string;
  /** Why it is missing; undefined when it is there. */
  missing?: string;
}

const required = (requirement: Requirement): boolean => process.env[`REQUIRE_${requirement.name}`] === '1';

/** The end of a skipped test's title; scripts/test-summary.js fails a run with a skip whose title has none. */
export const SKIP_MARK = '[skipped: ';
const skipReason = (requirement: Requirement) => `${SKIP_MARK}${requirement.missing}; REQUIRE_${requirement.name}=1 makes this a failure]`;

/** `describe` when the requirement is met; otherwise a visibly skipped suite, or a failing one when required. */
export function describeIf(requirement: Requirement): (title: string, body: () => void) => void {
  return (title, body) => {
    if (!requirement.missing) return describe(title, body);
    if (required(requirement)) {
      return describe(title, () => {
        it(`needs ${requirement.name} (REQUIRE_${requirement.name}=1)`, () => {
          throw new Error(`REQUIRE_${requirement.name}=1, but ${requirement.missing}`);
        });
      });
    }
    // The reason is in the title, which the skipped-tests reporter and .ci/run's summary print.
    return describe.skip(`${title} ${skipReason(requirement)}`, body);
  };
}

/** `it` when the requirement is met; otherwise a visibly skipped test, or a failing one when required. */
export function itIf(requirement: Requirement): (title: string, body: jest.ProvidesCallback) => void {
  return (title, body) => {
    if (!requirement.missing) return it(title, body);
    if (required(requirement)) {
      return it(title, () => {
        throw new Error(`REQUIRE_${requirement.name}=1, but ${requirement.missing}`);
      });
    }
    return it.skip(`${title} ${skipReason(requirement)}`, body);
  };
}

/** The Redis server of TEST_REDIS_URL (default redis://127.0.0.1:6379), if it accepts a connection within 10 s. */
export function redisServer(url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'): Requirement & { url: URL } {
  const parsed = new URL(url);
  // Suites are declared synchronously, so the probe runs in a child process (one connection attempt).
  const probe = spawnSync(
    process.execPath,
    ['-e', `require('net').connect(${Number(parsed.port || 6379)}, ${JSON.stringify(parsed.hostname)}).on('connect', () => process.exit(0)).on('error', () => process.exit(1))`],
    // Generous: starting Node on a loaded machine can take seconds, and a missing server refuses at once anyway.
    { timeout: 10_000 },
  );
  return { name: 'REDIS', url: parsed, missing: probe.status === 0 ? undefined : `no Redis answers at ${parsed.host}` };
}

/** The `openssl` command (to make a self-signed certificate). */
export function opensslCommand(): Requirement {
  const probe = spawnSync('openssl', ['version']);
  return { name: 'OPENSSL', missing: probe.status === 0 ? undefined : 'the openssl command is not installed' };
}

/** The `python3` command (the spec's reference serialization, and the Python example receiver). */
export function python3Command(): Requirement {
  const probe = spawnSync('python3', ['--version']);
  return { name: 'PYTHON3', missing: probe.status === 0 ? undefined : 'the python3 command is not installed' };
}

/** A PostgreSQL server (DATABASE_URL): the run on the embedded database has none. */
export function postgresServer(): Requirement {
  return { name: 'POSTGRES', missing: process.env.DATABASE_URL ? undefined : 'DATABASE_URL is unset (this run uses the embedded database)' };
}

/** The `promtool` command (Debian's `prometheus` package): checks alert rules and the /metrics exposition. */
export function promtoolCommand(): Requirement {
  const probe = spawnSync('promtool', ['--version']);
  return { name: 'PROMTOOL', missing: probe.status === 0 ? undefined : 'the promtool command is not installed (apt-get install prometheus)' };
}
