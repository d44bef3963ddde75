import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { AppConfig } from './app-config';
import { ConfigError } from './config.error';
import { EnvironmentVariables } from './environment.variables';

const PLACEHOLDER = /change.?me|example|placeholder|^(secret|password)$/i;

interface Secrets {
  JWT_SECRET: string;
  ADMIN_API_KEY: string;
  ENCRYPTION_KEY: string;
}

/**
 * Reads and validates the environment once. In production a missing or weak secret is refused with one line
 * naming the variable; elsewhere missing secrets are generated once and kept under DATA_DIR, so a fresh
 * checkout starts with no set-up.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const env = plainToInstance(EnvironmentVariables, { ...source }, { exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false, whitelist: false });
  if (errors.length > 0) {
    const first = errors[0];
    throw new ConfigError(first.property, Object.values(first.constraints ?? {})[0] ?? 'is invalid');
  }

  const production = env.NODE_ENV === 'production';
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  if (production && !env.DATABASE_URL) {
    throw new ConfigError('DATABASE_URL', 'is required in production (the embedded database is for development)');
  }
  const secrets = production ? requireSecrets(env) : { ...devSecrets(dataDir, env), ...definedSecrets(env) };
  checkSecretStrength(secrets);

  return new AppConfig({
    port: env.PORT ?? 3000,
    host: env.HOST ?? '0.0.0.0',
    production,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE ?? 10,
    databaseStatementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS ?? 10_000,
    executionCacheTtlMs: env.EXECUTION_CACHE_TTL_MS ?? 1_000,
    dataDir,
    redisUrl: env.REDIS_URL,
    jwt: {
      secret: secrets.JWT_SECRET,
      algorithm: env.JWT_ALGORITHM ?? 'HS256',
      issuer: env.JWT_ISSUER ?? 'action-gateway',
      audience: env.JWT_AUDIENCE ?? 'action-gateway',
      lifetimeSeconds: 86_400,
    },
    adminApiKey: secrets.ADMIN_API_KEY,
    encryptionKey: Buffer.from(secrets.ENCRYPTION_KEY, 'base64'),
    webhook: {
      timeoutMs: env.WEBHOOK_TIMEOUT_MS ?? 30_000,
      maxRetries: env.WEBHOOK_MAX_RETRIES ?? 2,
      allowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? !production,
      requireHttps: env.WEBHOOK_REQUIRE_HTTPS ?? production,
    },
    rateLimit: {
      perHour: env.RATE_LIMIT_PER_HOUR ?? 1000,
      tokenExchangePerMinute: env.TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE ?? 60,
    },
    actionsPerTenant: env.ACTIONS_PER_TENANT ?? 100,
    executionRetentionDays: env.EXECUTION_RETENTION_DAYS ?? 30,
    runMigrations: env.RUN_MIGRATIONS ?? !production,
    shutdown: { delayMs: env.SHUTDOWN_DELAY_MS ?? (production ? 5_000 : 0), graceMs: env.SHUTDOWN_GRACE_MS ?? 55_000 },
    trustProxy: env.TRUST_PROXY ?? false,
    logLevel: env.LOG_LEVEL ?? 'info',
    console: {
      sessionTtlMs: (env.CONSOLE_SESSION_TTL_MINUTES ?? 480) * 60_000,
      portalLinkTtlMs: (env.PORTAL_LINK_TTL_SECONDS ?? 300) * 1_000,
      publicUrl: env.PUBLIC_URL,
      frameAncestors: env.CONSOLE_FRAME_ANCESTORS?.split(' ') ?? [],
    },
  });
}

function definedSecrets(env: EnvironmentVariables): Partial<Secrets> {
  const defined: Partial<Secrets> = {};
  if (env.JWT_SECRET) defined.JWT_SECRET = env.JWT_SECRET;
  if (env.ADMIN_API_KEY) defined.ADMIN_API_KEY = env.ADMIN_API_KEY;
  if (env.ENCRYPTION_KEY) defined.ENCRYPTION_KEY = env.ENCRYPTION_KEY;
  return defined;
}

function requireSecrets(env: EnvironmentVariables): Secrets {
  for (const name of ['JWT_SECRET', 'ADMIN_API_KEY', 'ENCRYPTION_KEY'] as const) {
    if (!env[name]) throw new ConfigError(name, 'is required in production');
  }
  return definedSecrets(env) as Secrets;
}

function checkSecretStrength(secrets: Secrets): void {
  if (Buffer.byteLength(secrets.JWT_SECRET, 'utf8') < 32 || PLACEHOLDER.test(secrets.JWT_SECRET)) {
    throw new ConfigError('JWT_SECRET', 'is too weak: use at least 32 random bytes (openssl rand -base64 48)');
  }
  if (secrets.ADMIN_API_KEY.length < 32 || PLACEHOLDER.test(secrets.ADMIN_API_KEY)) {
    throw new ConfigError('ADMIN_API_KEY', 'is too weak: use at least 32 random characters (openssl rand -hex 32)');
  }
  const key = Buffer.from(secrets.ENCRYPTION_KEY, 'base64');
  if (key.length !== 32 || key.every((byte) => byte === 0)) {
    throw new ConfigError('ENCRYPTION_KEY', 'must be 32 random bytes in base64 (openssl rand -base64 32)');
  }
}

/** Secrets for a development machine: made on first start, then read back so tokens survive restarts. */
function devSecrets(dataDir: string, env: EnvironmentVariables): Secrets {
  const file = join(dataDir, 'secrets.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (env.JWT_SECRET && env.ADMIN_API_KEY && env.ENCRYPTION_KEY) return definedSecrets(env) as Secrets;
  const generated: Secrets = {
    JWT_SECRET: randomBytes(48).toString('base64'),
    ADMIN_API_KEY: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, JSON.stringify(generated, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
    return generated;
  } catch (error) {
    // Another process made the file first: use its secrets so both agree.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return JSON.parse(readFileSync(file, 'utf8')) as Secrets;
    throw error;
  }
}
