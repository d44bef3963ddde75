import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config.error';
import { checkEnvironment, DEFAULT_MASKED_HEADER_WORDS, loadConfig } from './load-config';

const strong = {
  DATABASE_URL: 'postgres://app@db:5432/gateway',
  JWT_SECRET: randomBytes(48).toString('base64'),
  ADMIN_API_KEY: randomBytes(32).toString('hex'),
  ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  PUBLIC_URL: 'https://gateway.example.com',
};

describe('loadConfig', () => {
  const dataDir = () => mkdtempSync(join(tmpdir(), 'agw-config-'));
  const captureConfigError = (env: NodeJS.ProcessEnv): ConfigError => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error;
      throw error;
    }
    throw new Error('loadConfig accepted the configuration');
  };

  it('applies the contract defaults', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      production: false,
      databaseUrl: undefined,
      databasePoolSize: 10,
      redisUrl: undefined,
      actionsPerTenant: 100,
      asyncExecutions: { perTenant: 100, concurrency: 20, leaseMs: 60_000 },
      schemaWorkerMsPerMinute: 10_000,
      runMigrations: true,
      webhook: { timeoutMs: 30_000, allowPrivateNetworks: true, requireHttps: false },
      rateLimit: { perHour: 1000, tokenExchangePerMinute: 60, operatorPerMinute: 600, adminKeyFailuresPerMinute: 30 },
      jwt: { algorithm: 'HS256', issuer: 'action-gateway', audience: 'action-gateway', lifetimeSeconds: 86_400 },
    });
  });

  it('turns the webhook safety checks on in production', () => {
    const config = loadConfig({ NODE_ENV: 'production', ...strong });
    expect(config.webhook).toMatchObject({ allowPrivateNetworks: false, requireHttps: true });
    expect(config.runMigrations).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', ...strong, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }).webhook.allowPrivateNetworks).toBe(true);
  });

  it('generates missing secrets once outside production and reads them back', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(second.jwt.secret).toBe(first.jwt.secret);
    expect(second.adminApiKey).toBe(first.adminApiKey);
    expect(first.encryptionKey).toHaveLength(32);
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8')).JWT_SECRET).toBe(first.jwt.secret);
  });

  it('lets a given secret win over a generated one', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: strong.JWT_SECRET });
    expect(config.jwt.secret).toBe(strong.JWT_SECRET);
  });

  it.each([
    [{ DATABASE_URL: undefined }, 'Configuration error: DATABASE_URL is required in production'],
    [{ JWT_SECRET: undefined }, 'Configuration error: JWT_SECRET is required in production'],
    [{ JWT_SECRET: 'short' }, 'Configuration error: JWT_SECRET is too weak (it is shorter than 32 bytes)'],
    [{ JWT_SECRET: 'change-me-change-me-change-me-change-me' }, 'Configuration error: JWT_SECRET is too weak (it is a placeholder)'],
    [{ JWT_SECRET: 'a'.repeat(40) }, 'Configuration error: JWT_SECRET is too weak (it repeats a short pattern)'],
    [{ JWT_SECRET: 'ab'.repeat(20) }, 'Configuration error: JWT_SECRET is too weak (it repeats a short pattern)'],
    [{ JWT_SECRET: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab' }, 'Configuration error: JWT_SECRET is too weak (it has too little variety to be random)'],
    [{ ADMIN_API_KEY: undefined }, 'Configuration error: ADMIN_API_KEY is required in production'],
    [{ ADMIN_API_KEY: 'admin' }, 'Configuration error: ADMIN_API_KEY is too weak (it is shorter than 32 characters)'],
    [{ ADMIN_API_KEY: '0'.repeat(64) }, 'Configuration error: ADMIN_API_KEY is too weak (it repeats a short pattern)'],
    [{ ENCRYPTION_KEY: undefined }, 'Configuration error: ENCRYPTION_KEY is required in production'],
    [{ PUBLIC_URL: undefined }, 'Configuration error: PUBLIC_URL is required in production: the origin browsers reach the service at, e.g. https://gateway.example.com (portal links are made with it)'],
    [{ ENCRYPTION_KEY: Buffer.alloc(16, 7).toString('base64') }, 'Configuration error: ENCRYPTION_KEY must be 32 random bytes in base64'],
    [{ ENCRYPTION_KEY: 'not base64 at all, but 44 characters long!!!' }, 'Configuration error: ENCRYPTION_KEY must be 32 random bytes in base64'],
    [{ ENCRYPTION_KEY: Buffer.alloc(32).toString('base64') }, 'Configuration error: ENCRYPTION_KEY is too weak (it repeats a short pattern)'],
    [{ ENCRYPTION_KEY: Buffer.from('0123456789abcdef'.repeat(2)).toString('base64') }, 'Configuration error: ENCRYPTION_KEY is too weak (it repeats a short pattern)'],
    [{ ENCRYPTION_KEY: Buffer.from([...Buffer.alloc(28, 9), 1, 2, 3, 4]).toString('base64') }, 'Configuration error: ENCRYPTION_KEY is too weak (it has too little variety to be random)'],
  ])('refuses to start in production with %j', (override, message) => {
    expect(() => loadConfig({ NODE_ENV: 'production', ...strong, ...override })).toThrow(message);
  });

  it.each([
    [{ ADMIN_API_KEY: strong.JWT_SECRET }, 'Configuration error: ADMIN_API_KEY is the same secret as JWT_SECRET: give each its own random value'],
    [{ ENCRYPTION_KEY: strong.ENCRYPTION_KEY, JWT_SECRET: strong.ENCRYPTION_KEY }, 'Configuration error: ENCRYPTION_KEY is the same secret as JWT_SECRET'],
    [{ ADMIN_API_KEY: `${strong.JWT_SECRET}-admin` }, 'Configuration error: ADMIN_API_KEY is the same secret as JWT_SECRET'],
    [
      { DATABASE_URL: `postgres://app:${encodeURIComponent(strong.ADMIN_API_KEY)}@db:5432/gateway` },
      'Configuration error: DATABASE_URL has a password that is the same secret as ADMIN_API_KEY',
    ],
    [
      { REDIS_URL: `redis://:${strong.ADMIN_API_KEY}@redis:6379` },
      'Configuration error: REDIS_URL has a password that is the same secret as ADMIN_API_KEY',
    ],
  ])('refuses one secret reused for another: %j', (override, message) => {
    expect(() => loadConfig({ NODE_ENV: 'production', ...strong, ...override })).toThrow(message);
  });

  it('keeps payloads 7 days by default, never longer than the executions, and refuses a payload retention above it', () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({ executionRetentionDays: 30, executionPayloadRetentionDays: 7 });
    expect(loadConfig({ DATA_DIR: dataDir(), EXECUTION_RETENTION_DAYS: '3' }).executionPayloadRetentionDays).toBe(3);
    expect(loadConfig({ DATA_DIR: dataDir(), EXECUTION_PAYLOAD_RETENTION_DAYS: '30' }).executionPayloadRetentionDays).toBe(30);
    const error = captureConfigError({ DATA_DIR: dataDir(), EXECUTION_RETENTION_DAYS: '10', EXECUTION_PAYLOAD_RETENTION_DAYS: '11' });
    expect(error.message).toBe('Configuration error: EXECUTION_PAYLOAD_RETENTION_DAYS must be at most EXECUTION_RETENTION_DAYS (10), not 11');
    expect(captureConfigError({ DATA_DIR: dataDir(), EXECUTION_PAYLOAD_RETENTION_DAYS: '0' }).message).toMatch(/^Configuration error: EXECUTION_PAYLOAD_RETENTION_DAYS must be a whole number/);
  });

  it('masks credential-like answer headers by default; EXECUTION_PAYLOAD_MASKED_HEADERS replaces the words, or none', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).executionPayloadMaskedHeaderWords).toEqual(['token', 'secret', 'key', 'auth', 'session', 'signature', 'cookie', 'password']);
    expect(loadConfig({ DATA_DIR: dataDir(), EXECUTION_PAYLOAD_MASKED_HEADERS: '' }).executionPayloadMaskedHeaderWords).toEqual(DEFAULT_MASKED_HEADER_WORDS);
    expect(loadConfig({ DATA_DIR: dataDir(), EXECUTION_PAYLOAD_MASKED_HEADERS: ' Token, X-Tenant-Ref,token ' }).executionPayloadMaskedHeaderWords).toEqual(['token', 'x-tenant-ref']);
    expect(loadConfig({ DATA_DIR: dataDir(), EXECUTION_PAYLOAD_MASKED_HEADERS: 'None' }).executionPayloadMaskedHeaderWords).toEqual([]);
    expect(() => loadConfig({ DATA_DIR: dataDir(), EXECUTION_PAYLOAD_MASKED_HEADERS: 'token,,a b' })).toThrow(
      'EXECUTION_PAYLOAD_MASKED_HEADERS must be comma-separated words of a header name (or none); not such a word: "", "a b"',
    );
  });

  it('reads MCP_ALLOWED_ORIGINS as origins, by commas or spaces, as a browser writes them, and names what is not one', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).mcpAllowedOrigins).toEqual([]);
    expect(loadConfig({ DATA_DIR: dataDir(), MCP_ALLOWED_ORIGINS: 'https://Agent.example.com:443, http://127.0.0.1:6274 https://agent.example.com' }).mcpAllowedOrigins).toEqual([
      'https://agent.example.com',
      'http://127.0.0.1:6274',
    ]);
    expect(() => loadConfig({ DATA_DIR: dataDir(), MCP_ALLOWED_ORIGINS: 'https://ok.example.com,https://a.example.com/mcp,*,agent.example.com' })).toThrow(
      'MCP_ALLOWED_ORIGINS must be http(s) origins (scheme, host, port: no path), separated by commas or spaces; not one: "https://a.example.com/mcp", "*", "agent.example.com"',
    );
  });

  it('accepts a database password that is not one of the secrets', () => {
    expect(loadConfig({ NODE_ENV: 'production', ...strong, DATABASE_URL: 'postgres://app:db-password@db/gateway' }).production).toBe(true);
  });

  it('lists every problem at once, one line each, and never repeats a secret', () => {
    const error = captureConfigError({ NODE_ENV: 'production', PORT: 'abc', JWT_SECRET: 'a'.repeat(40), RATE_LIMIT_PER_HOUR: '-1' });
    expect(error.message.split('\n')).toEqual([
      'Configuration error: PORT must be a whole number from 0 to 65535, not "abc"',
      'Configuration error: RATE_LIMIT_PER_HOUR must be a whole number, at least 1, not "-1"',
      'Configuration error: DATABASE_URL is required in production (the embedded database is for development)',
      'Configuration error: ADMIN_API_KEY is required in production',
      'Configuration error: ENCRYPTION_KEY is required in production',
      'Configuration error: PUBLIC_URL is required in production: the origin browsers reach the service at, e.g. https://gateway.example.com (portal links are made with it)',
      'Configuration error: JWT_SECRET is too weak (it repeats a short pattern): use at least 32 random bytes (openssl rand -base64 48)',
    ]);
    const secret = captureConfigError({ DATA_DIR: dataDir(), DATABASE_URL: 'mysql://user:hunter2@db/x' });
    expect(secret.message).toBe('Configuration error: DATABASE_URL must be a postgres:// URL');
  });

  it('starts outside production with weak and reused secrets, and warns about each', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'test', JWT_SECRET: 'test-secret', ADMIN_API_KEY: 'test-secret', ENCRYPTION_KEY: 'dev-key' });
    expect(config.jwt.secret).toBe('test-secret');
    expect(config.adminApiKey).toBe('test-secret');
    // Not 32 bytes of base64: its SHA-256 is the key.
    expect(config.encryptionKey).toEqual(createHash('sha256').update('dev-key').digest());
    expect(config.warnings).toEqual([
      'JWT_SECRET is too weak (it is shorter than 32 bytes): use at least 32 random bytes (openssl rand -base64 48) (accepted outside production, refused in production)',
      'ADMIN_API_KEY is too weak (it is shorter than 32 characters): use at least 32 random characters (openssl rand -hex 32) (accepted outside production, refused in production)',
      'ENCRYPTION_KEY must be 32 random bytes in base64 (openssl rand -base64 32) (accepted outside production, refused in production)',
      'ADMIN_API_KEY is the same secret as JWT_SECRET: give each its own random value (accepted outside production, refused in production)',
    ]);
  });

  it('has no warning for strong secrets, and uses a 32-byte ENCRYPTION_KEY as it is', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), ...strong });
    expect(config.warnings).toEqual([]);
    expect(config.encryptionKey).toEqual(Buffer.from(strong.ENCRYPTION_KEY, 'base64'));
    expect(loadConfig({ NODE_ENV: 'production', ...strong }).warnings).toEqual([]);
  });

  it('names DATA_DIR in one line when it is a file', () => {
    const file = join(dataDir(), 'a-file');
    writeFileSync(file, 'x');
    expect(captureConfigError({ DATA_DIR: file }).message).toBe(
      `Configuration error: DATA_DIR must be a directory the service can write: ${join(file, 'secrets.json')} gives ENOTDIR`,
    );
  });

  it.each(['prod', 'Production', 'staging', 'dev'])('refuses NODE_ENV=%s rather than starting in development', (value) => {
    const error = captureConfigError({ DATA_DIR: dataDir(), NODE_ENV: value });
    expect(error.message).toBe(
      `Configuration error: NODE_ENV must be one of production, development, test (unset means development), not "${value}"`,
    );
  });

  it.each(['development', 'test', ''])('starts in development with NODE_ENV=%j', (value) => {
    expect(loadConfig({ DATA_DIR: dataDir(), NODE_ENV: value }).production).toBe(false);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a whole number from 0 to 65535, not "eighty"'],
    [{ PORT: '80.5' }, 'PORT must be a whole number from 0 to 65535, not "80.5"'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 0 to 65535, not "70000"'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgres:// URL'],
    [{ WEBHOOK_TIMEOUT_MS: '0' }, 'WEBHOOK_TIMEOUT_MS must be a whole number from 1 to 300000, not "0"'],
    [{ WEBHOOK_REQUIRE_HTTPS: 'maybe' }, 'WEBHOOK_REQUIRE_HTTPS must be true or false, not "maybe"'],
    [{ JWT_ALGORITHM: 'none' }, 'JWT_ALGORITHM must be one of HS256, HS384, HS512, not "none"'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "verbose"'],
    [{ ASYNC_EXECUTION_LEASE_MS: '10000', WEBHOOK_TIMEOUT_MS: '10000' }, 'ASYNC_EXECUTION_LEASE_MS must be at least WEBHOOK_TIMEOUT_MS + 1000 (11000), not 10000'],
    [{ ASYNC_EXECUTIONS_PER_TENANT: '0' }, 'ASYNC_EXECUTIONS_PER_TENANT must be a whole number from 1 to 100000, not "0"'],
    [{ EMBEDDED_DATABASE_PORT: 'auto' }, 'EMBEDDED_DATABASE_PORT must be a whole number from 0 to 65535, not "auto"'],
    [{ EMBEDDED_DATABASE_PORT: '3000' }, "EMBEDDED_DATABASE_PORT must not be the service's own PORT (3000): choose another, or unset it for a free one"],
    [{ EMBEDDED_DATABASE_PORT: '8080', PORT: '8080' }, "EMBEDDED_DATABASE_PORT must not be the service's own PORT (8080)"],
  ])('says in plain words what is wrong with %j', (override, message) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...override })).toThrow(`Configuration error: ${message}`);
  });

  it.each([
    ['', false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.0/8', ['10.0.0.0/8']],
    ['10.1.2.3, 192.168.0.0/16,fd00::/8', ['10.1.2.3', '192.168.0.0/16', 'fd00::/8']],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
  ])('reads TRUST_PROXY=%j', (value, expected) => {
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each([
    ['true', '"true" would take the client address from X-Forwarded-For as the client wrote it'],
    ['yes', '"yes" would take the client address'],
    ['10.0.0.0/33', 'not an address or range: "10.0.0.0/33"'],
    ['10.0.0.1, proxy.internal', 'not an address or range: "proxy.internal"'],
    ['127.1', 'not an address or range: "127.1"'],
  ])('refuses TRUST_PROXY=%j', (value, message) => {
    const error = captureConfigError({ DATA_DIR: dataDir(), TRUST_PROXY: value });
    expect(error.message).toContain('Configuration error: TRUST_PROXY must be false, the number of proxies in front');
    expect(error.message).toContain(message);
  });

  it('reads numbers and booleans', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), PORT: '8080', RATE_LIMIT_PER_HOUR: '10', WEBHOOK_REQUIRE_HTTPS: 'yes', HOST: '' });
    expect(config.port).toBe(8080);
    expect(config.host).toBe('0.0.0.0');
    expect(config.rateLimit.perHour).toBe(10);
    expect(config.webhook.requireHttps).toBe(true);
    // The embedded database's port: a free one each start unless set.
    expect(config.embeddedDatabasePort).toBe(0);
    expect(loadConfig({ DATA_DIR: dataDir(), EMBEDDED_DATABASE_PORT: '55432' }).embeddedDatabasePort).toBe(55432);
  });

  it('checks the environment without touching DATA_DIR (npm start does it before building)', () => {
    const dir = join(dataDir(), 'not-made');
    expect(checkEnvironment({ DATA_DIR: dir, PORT: '8080' }).env.PORT).toBe(8080);
    expect(() => statSync(dir)).toThrow(/ENOENT/);
    expect(() => checkEnvironment({ DATA_DIR: dir, PORT: 'abc' })).toThrow('Configuration error: PORT must be a whole number from 0 to 65535, not "abc"');
  });
});
