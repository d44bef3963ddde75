import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import ipaddr from 'ipaddr.js';
import { AppConfig, TrustProxy } from './app-config';
import { ConfigError, ConfigProblem } from './config.error';
import { EnvironmentVariables, SECRET_VARIABLES } from './environment.variables';
import { portalBranding } from './portal-config';
import { keyWeakness, weakness } from './secret-strength';
import { tracingSettings } from './tracing-config';

interface Secrets {
  JWT_SECRET: string;
  ADMIN_API_KEY: string;
  ENCRYPTION_KEY: string;
}

const SECRET_NAMES = ['JWT_SECRET', 'ADMIN_API_KEY', 'ENCRYPTION_KEY'] as const;
/** Where secrets generated outside production are kept, under DATA_DIR. */
const SECRETS_FILE = 'secrets.json';

/**
 * Reads and validates the environment once, and reports every problem at once, one line each: an invalid
 * value, an unknown NODE_ENV, and in production a missing setting, a weak secret or one secret reused for
 * another. Outside production missing secrets are generated once and kept under DATA_DIR, so a fresh checkout
 * starts with no set-up, and a weak or reused secret (`JWT_SECRET=test-secret` in a test set-up) is a warning
 * logged at start (AppConfig.warnings), not a refusal.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const { env, production, warnings, trustProxy, tracing, portal, executionRetentionDays, webhookTimeoutMs, maskedHeaders, mcpAllowedOrigins } = checkEnvironment(source);
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  const secrets = production ? (definedSecrets(env) as Secrets) : { ...devSecretsIn(dataDir, env), ...definedSecrets(env) };
  return new AppConfig({
    port: env.PORT ?? 3000,
    host: env.HOST ?? '0.0.0.0',
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS ?? 60_000,
    production,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE ?? 10,
    databaseStatementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS ?? 10_000,
    readModelCacheMb: env.READ_MODEL_CACHE_MB ?? 32,
    dataDir,
    embeddedDatabasePort: env.EMBEDDED_DATABASE_PORT ?? 0,
    redisUrl: env.REDIS_URL,
    jwt: {
      secret: secrets.JWT_SECRET,
      algorithm: env.JWT_ALGORITHM ?? 'HS256',
      issuer: env.JWT_ISSUER ?? 'action-gateway',
      audience: env.JWT_AUDIENCE ?? 'action-gateway',
      lifetimeSeconds: 86_400,
    },
    adminApiKey: secrets.ADMIN_API_KEY,
    adminApiKeyFile: production || env.ADMIN_API_KEY ? undefined : join(dataDir, SECRETS_FILE),
    encryptionKey: encryptionKey(secrets.ENCRYPTION_KEY),
    webhook: {
      timeoutMs: webhookTimeoutMs,
      maxRetries: env.WEBHOOK_MAX_RETRIES ?? 2,
      breakerFailures: env.WEBHOOK_BREAKER_FAILURES ?? 5,
      breakerCooldownMs: env.WEBHOOK_BREAKER_COOLDOWN_MS ?? 30_000,
      allowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? !production,
      requireHttps: env.WEBHOOK_REQUIRE_HTTPS ?? production,
    },
    rateLimit: {
      perHour: env.RATE_LIMIT_PER_HOUR ?? 1000,
      tokenExchangePerMinute: env.TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE ?? 60,
      operatorPerMinute: env.OPERATOR_RATE_LIMIT_PER_MINUTE ?? 600,
      adminKeyFailuresPerMinute: env.ADMIN_KEY_FAILURES_PER_MINUTE ?? 30,
    },
    actionsPerTenant: env.ACTIONS_PER_TENANT ?? 100,
    asyncExecutions: {
      perTenant: env.ASYNC_EXECUTIONS_PER_TENANT ?? 100,
      concurrency: env.ASYNC_EXECUTION_CONCURRENCY ?? 20,
      leaseMs: env.ASYNC_EXECUTION_LEASE_MS ?? webhookTimeoutMs + 30_000,
    },
    schemaWorkerMsPerMinute: env.SCHEMA_WORKER_MS_PER_MINUTE ?? 10_000,
    executionRetentionDays,
    executionPayloadRetentionDays: env.EXECUTION_PAYLOAD_RETENTION_DAYS ?? Math.min(7, executionRetentionDays),
    executionPayloadMaskedHeaderWords: maskedHeaders,
    runMigrations: env.RUN_MIGRATIONS ?? !production,
    shutdown: { delayMs: env.SHUTDOWN_DELAY_MS ?? (production ? 5_000 : 0), graceMs: env.SHUTDOWN_GRACE_MS ?? 55_000 },
    trustProxy,
    mcpAllowedOrigins,
    tracing,
    logLevel: env.LOG_LEVEL ?? 'info',
    console: {
      sessionTtlMs: (env.CONSOLE_SESSION_TTL_MINUTES ?? 480) * 60_000,
      portalLinkTtlMs: (env.PORTAL_LINK_TTL_SECONDS ?? 300) * 1_000,
      publicUrl: env.PUBLIC_URL,
      frameAncestors: env.CONSOLE_FRAME_ANCESTORS?.split(' ') ?? [],
      portal,
    },
    warnings,
  });
}

/**
 * The environment's values, checked: every problem at once as a ConfigError, and the warnings to log. Reads and
 * writes no file, so `npm start` runs it before anything is built (scripts/preflight.js) and a PORT that is no
 * number is said in a second, in these words.
 */
export function checkEnvironment(source: NodeJS.ProcessEnv = process.env) {
  const problems: ConfigProblem[] = [];
  const problem = (variable: string, text: string) => problems.push({ variable, problem: text });

  const env = plainToInstance(EnvironmentVariables, { ...source }, { exposeDefaultValues: true });
  for (const error of validateSync(env, { skipMissingProperties: false, whitelist: false, stopAtFirstError: true })) {
    const message = Object.values(error.constraints ?? {})[0] ?? 'is invalid';
    const raw = source[error.property];
    problem(error.property, SECRET_VARIABLES.has(error.property) || raw === undefined ? message : `${message}, not "${raw}"`);
  }
  // Only the listed values count: an unknown NODE_ENV has been reported above and switches nothing on.
  const production = env.NODE_ENV === 'production';
  if (production) {
    if (!env.DATABASE_URL) problem('DATABASE_URL', 'is required in production (the embedded database is for development)');
    for (const name of SECRET_NAMES) if (!env[name]) problem(name, 'is required in production');
    // Portal links are minted with it: no request header (Host, X-Forwarded-Host) may choose their origin.
    if (!env.PUBLIC_URL) problem('PUBLIC_URL', 'is required in production: the origin browsers reach the service at, e.g. https://gateway.example.com (portal links are made with it)');
  }
  const warnings: string[] = [];
  checkSecrets(env, production ? problem : (variable, text) => warnings.push(`${variable} ${text} (accepted outside production, refused in production)`));
  const trustProxy = trustProxySetting(env.TRUST_PROXY, problem);
  const tracing = tracingSettings(env, problem, (text) => warnings.push(text));
  const portal = portalBranding(env, production, problem, (text) => warnings.push(text));
  const executionRetentionDays = env.EXECUTION_RETENTION_DAYS ?? 30;
  // Payloads are part of an execution: kept no longer than it (a week by default, as they may carry personal data).
  if (env.EXECUTION_PAYLOAD_RETENTION_DAYS !== undefined && env.EXECUTION_PAYLOAD_RETENTION_DAYS > executionRetentionDays) {
    problem('EXECUTION_PAYLOAD_RETENTION_DAYS', `must be at most EXECUTION_RETENTION_DAYS (${executionRetentionDays}), not ${env.EXECUTION_PAYLOAD_RETENTION_DAYS}`);
  }
  const webhookTimeoutMs = env.WEBHOOK_TIMEOUT_MS ?? 30_000;
  // A run must end (its call, retries and storing) within its lease, or another replica runs it again meanwhile.
  if (env.ASYNC_EXECUTION_LEASE_MS !== undefined && env.ASYNC_EXECUTION_LEASE_MS < webhookTimeoutMs + 1_000) {
    problem('ASYNC_EXECUTION_LEASE_MS', `must be at least WEBHOOK_TIMEOUT_MS + 1000 (${webhookTimeoutMs + 1_000}), not ${env.ASYNC_EXECUTION_LEASE_MS}`);
  }
  // Both are bound on loopback at least: the second bind would fail after the database was opened.
  if (env.EMBEDDED_DATABASE_PORT && env.EMBEDDED_DATABASE_PORT === (env.PORT ?? 3000)) {
    problem('EMBEDDED_DATABASE_PORT', `must not be the service's own PORT (${env.EMBEDDED_DATABASE_PORT}): choose another, or unset it for a free one`);
  }
  const maskedHeaders = maskedHeaderWords(env.EXECUTION_PAYLOAD_MASKED_HEADERS, problem);
  const mcpAllowedOrigins = originList('MCP_ALLOWED_ORIGINS', env.MCP_ALLOWED_ORIGINS, problem);
  if (problems.length > 0) throw new ConfigError(problems);
  return { env, production, warnings, trustProxy, tracing, portal, executionRetentionDays, webhookTimeoutMs, maskedHeaders, mcpAllowedOrigins };
}

/**
 * The AES-256 key: ENCRYPTION_KEY's 32 bytes. Anything else gets this far only outside production (checkSecrets
 * warned), where its SHA-256 serves as the key, so a development set-up with any value starts.
 */
function encryptionKey(value: string): Buffer {
  const key = strictBase64(value);
  return key?.length === 32 ? key : createHash('sha256').update(value, 'utf8').digest();
}

type Report = (variable: string, problem: string) => void;

/**
 * The secrets the operator gave: long enough, not a placeholder or a repeated pattern, varied enough to be
 * random, and each one used for one purpose only (also not as a database or Redis password), so that one leaked
 * value does not open everything. What is wrong goes to `problem`: a refusal in production, a warning elsewhere.
 */
function checkSecrets(env: EnvironmentVariables, problem: Report): void {
  const tooWeak = (why: string, advice: string) => `is too weak (it ${why}): ${advice}`;
  if (env.JWT_SECRET) {
    const why = weakness(env.JWT_SECRET, 32, 'bytes');
    if (why) problem('JWT_SECRET', tooWeak(why, 'use at least 32 random bytes (openssl rand -base64 48)'));
  }
  if (env.ADMIN_API_KEY) {
    const why = weakness(env.ADMIN_API_KEY, 32, 'characters');
    if (why) problem('ADMIN_API_KEY', tooWeak(why, 'use at least 32 random characters (openssl rand -hex 32)'));
  }
  if (env.ENCRYPTION_KEY) {
    const key = strictBase64(env.ENCRYPTION_KEY);
    const why = key?.length === 32 ? keyWeakness(key) : undefined;
    if (key?.length !== 32) problem('ENCRYPTION_KEY', 'must be 32 random bytes in base64 (openssl rand -base64 32)');
    else if (why) problem('ENCRYPTION_KEY', tooWeak(why, 'use 32 random bytes in base64 (openssl rand -base64 32)'));
  }

  const values: [string, string | undefined][] = [
    ...SECRET_NAMES.map((name): [string, string | undefined] => [name, env[name]]),
    ['the password in DATABASE_URL', urlPassword(env.DATABASE_URL)],
    ['the password in REDIS_URL', urlPassword(env.REDIS_URL)],
  ];
  for (const [index, [name, value]] of values.entries()) {
    const earlier = values.slice(0, index).find(([, other]) => other && value && sameSecret(value, other));
    if (earlier) {
      const variable = name.startsWith('the password in ') ? name.slice('the password in '.length) : name;
      problem(variable, `${name === variable ? 'is' : 'has a password that is'} the same secret as ${earlier[0]}: give each its own random value`);
    }
  }
}

/** Equal, or one contains the other (a secret with something appended is the same secret). */
function sameSecret(a: string, b: string): boolean {
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  return shorter === longer || (shorter.length >= 16 && longer.includes(shorter));
}

function urlPassword(url: string | undefined): string | undefined {
  try {
    return url ? decodeURIComponent(new URL(url).password) || undefined : undefined;
  } catch {
    return undefined;
  }
}

/** The bytes of standard or URL-safe base64 (padding optional), or undefined when it is not base64. */
function strictBase64(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return undefined;
  const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.toString('base64').replace(/=+$/, '') === text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '') ? bytes : undefined;
}

/** What a receiver's answer header is masked for when its name contains it (any case), unless configured otherwise. */
export const DEFAULT_MASKED_HEADER_WORDS: readonly string[] = ['token', 'secret', 'key', 'auth', 'session', 'signature', 'cookie', 'password'];
const MAX_MASKED_HEADER_WORDS = 100;

/**
 * EXECUTION_PAYLOAD_MASKED_HEADERS: comma-separated words (the characters a header name may hold), compared in
 * lowercase; `none` for no word at all (the standard credential headers are masked whatever it says); unset: the
 * default words.
 */
export function maskedHeaderWords(value: string | undefined, problem: Report): readonly string[] {
  if (value === undefined) return DEFAULT_MASKED_HEADER_WORDS;
  const text = value.trim().toLowerCase();
  if (text === 'none') return [];
  const words = text.split(',').map((word) => word.trim());
  const invalid = words.filter((word) => !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(word));
  if (invalid.length > 0) {
    problem('EXECUTION_PAYLOAD_MASKED_HEADERS', `must be comma-separated words of a header name (or none); not such a word: ${invalid.map((word) => `"${word}"`).join(', ')}`);
  } else if (words.length > MAX_MASKED_HEADER_WORDS) {
    problem('EXECUTION_PAYLOAD_MASKED_HEADERS', `must hold at most ${MAX_MASKED_HEADER_WORDS} words, not ${words.length}`);
  }
  return [...new Set(words)];
}

/**
 * A list of origins (`https://agent.example.com`: scheme, host, optional port; no path), separated by commas or
 * spaces, each as `URL` writes an origin (lowercase, no default port), so that it compares with a browser's.
 */
export function originList(variable: string, value: string | undefined, problem: Report): readonly string[] {
  const entries = (value ?? '').split(/[\s,]+/).filter(Boolean);
  const origins: string[] = [];
  const invalid: string[] = [];
  for (const entry of entries) {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    const bare = url && (url.protocol === 'http:' || url.protocol === 'https:') && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    if (url && bare) origins.push(url.origin);
    else invalid.push(entry);
  }
  if (invalid.length > 0) {
    problem(variable, `must be http(s) origins (scheme, host, port: no path), separated by commas or spaces; not one: ${invalid.map((entry) => `"${entry}"`).join(', ')}`);
  }
  return [...new Set(origins)];
}

const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const TRUST_PROXY_FORMS = 'false, the number of proxies in front (1 for one load balancer) or a comma-separated list of their addresses or CIDR ranges';

/**
 * TRUST_PROXY: whom to believe about the client's address. A hop count takes the address that many proxies
 * back from the right of X-Forwarded-For; an address list takes the right-most address that is not one of the
 * listed proxies. `true` is refused: it would take the left-most address, which the client itself writes.
 */
function trustProxySetting(value: string | undefined, problem: Report): TrustProxy {
  const text = (value ?? '').trim();
  if (['', 'false', '0', 'no', 'off'].includes(text.toLowerCase())) return false;
  if (/^\d+$/.test(text)) return Number(text);
  if (['true', 'yes', 'on'].includes(text.toLowerCase())) {
    problem('TRUST_PROXY', `must be ${TRUST_PROXY_FORMS}; "${text}" would take the client address from X-Forwarded-For as the client wrote it`);
    return false;
  }
  const entries = text.split(',').map((entry) => entry.trim());
  const invalid = entries.filter((entry) => !PROXY_RANGES.has(entry) && !isAddressOrRange(entry));
  if (invalid.length > 0) {
    problem('TRUST_PROXY', `must be ${TRUST_PROXY_FORMS}; not an address or range: ${invalid.map((entry) => `"${entry}"`).join(', ')}`);
    return false;
  }
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !(ipaddr.IPv4.isValidFourPartDecimal(address) || ipaddr.IPv6.isValid(address))) return false;
  return bits === undefined || ipaddr.isValidCIDR(entry);
}

function definedSecrets(env: EnvironmentVariables): Partial<Secrets> {
  const defined: Partial<Secrets> = {};
  for (const name of SECRET_NAMES) if (env[name]) defined[name] = env[name];
  return defined;
}

/** devSecrets, with a data directory that cannot be used (a file, no permission) as one configuration line. */
function devSecretsIn(dataDir: string, env: EnvironmentVariables): Secrets {
  try {
    return devSecrets(dataDir, env);
  } catch (error) {
    const { code, path } = error as NodeJS.ErrnoException;
    if (code === undefined || path === undefined) throw error;
    throw new ConfigError([{ variable: 'DATA_DIR', problem: `must be a directory the service can write: ${path} gives ${code}` }]);
  }
}

/** Secrets for a development machine: made on first start, then read back so tokens survive restarts. */
function devSecrets(dataDir: string, env: EnvironmentVariables): Secrets {
  const file = join(dataDir, SECRETS_FILE);
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
