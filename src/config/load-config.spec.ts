import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './load-config';

const strong = {
  DATABASE_URL: 'postgres://app@db:5432/gateway',
  JWT_SECRET: randomBytes(48).toString('base64'),
  ADMIN_API_KEY: randomBytes(32).toString('hex'),
  ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};

describe('loadConfig', () => {
  const dataDir = () => mkdtempSync(join(tmpdir(), 'agw-config-'));

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
      runMigrations: true,
      webhook: { timeoutMs: 30_000, allowPrivateNetworks: true, requireHttps: false },
      rateLimit: { perHour: 1000, tokenExchangePerMinute: 60 },
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
    [{ JWT_SECRET: 'short' }, 'Configuration error: JWT_SECRET is too weak'],
    [{ JWT_SECRET: 'change-me-change-me-change-me-change-me' }, 'Configuration error: JWT_SECRET is too weak'],
    [{ ADMIN_API_KEY: undefined }, 'Configuration error: ADMIN_API_KEY is required in production'],
    [{ ADMIN_API_KEY: 'admin' }, 'Configuration error: ADMIN_API_KEY is too weak'],
    [{ ENCRYPTION_KEY: undefined }, 'Configuration error: ENCRYPTION_KEY is required in production'],
    [{ ENCRYPTION_KEY: Buffer.alloc(16, 7).toString('base64') }, 'Configuration error: ENCRYPTION_KEY must be 32 random bytes'],
    [{ ENCRYPTION_KEY: Buffer.alloc(32).toString('base64') }, 'Configuration error: ENCRYPTION_KEY must be 32 random bytes'],
  ])('refuses to start in production with %j', (override, message) => {
    expect(() => loadConfig({ NODE_ENV: 'production', ...strong, ...override })).toThrow(message);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ WEBHOOK_TIMEOUT_MS: '0' }, 'WEBHOOK_TIMEOUT_MS'],
    [{ WEBHOOK_REQUIRE_HTTPS: 'maybe' }, 'WEBHOOK_REQUIRE_HTTPS'],
    [{ JWT_ALGORITHM: 'none' }, 'JWT_ALGORITHM'],
  ])('names the variable of an invalid value %j', (override, variable) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...override })).toThrow(`Configuration error: ${variable}`);
  });

  it('reads numbers and booleans', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), PORT: '8080', RATE_LIMIT_PER_HOUR: '10', WEBHOOK_REQUIRE_HTTPS: 'yes', HOST: '' });
    expect(config.port).toBe(8080);
    expect(config.host).toBe('0.0.0.0');
    expect(config.rateLimit.perHour).toBe(10);
    expect(config.webhook.requireHttps).toBe(true);
  });
});
