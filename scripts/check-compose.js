#!/usr/bin/env node
/**
 * Checks docker-compose.yml without a Docker engine: it parses (with the `yaml` dev dependency), it has the
 * service, its migration step, PostgreSQL and Redis wired together with healthchecks and start order, every
 * variable it gives the service is one the service knows (.env.example lists them all), the secrets come from
 * outside the file, and the service's own configuration check accepts the environment as written (built
 * dist/ needed: run after `npm run build`). Prints one line per problem and exits 1, or "compose: OK".
 */
const { randomBytes } = require('node:crypto');
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const YAML = require('yaml');

const root = join(__dirname, '..');
const problems = [];
const problem = (text) => problems.push(text);

const document = YAML.parseDocument(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true });
if (document.errors.length > 0) {
  console.error(`docker-compose.yml does not parse: ${document.errors[0].message}`);
  process.exit(1);
}
const compose = document.toJS({ maxAliasCount: 100 });
const services = compose.services ?? {};

for (const name of ['gateway', 'migrate', 'postgres', 'redis']) if (!services[name]) problem(`no service "${name}"`);
const { gateway = {}, migrate = {}, postgres = {}, redis = {} } = services;

// Long-running services say when they are healthy; the service waits for what it needs.
for (const [name, service] of Object.entries({ gateway, postgres, redis })) {
  const test = service.healthcheck?.test;
  if (!Array.isArray(test) || test.length < 2) problem(`${name}: no healthcheck test`);
  if (!service.healthcheck?.interval) problem(`${name}: healthcheck without an interval`);
}
if (!/readyz/.test(JSON.stringify(gateway.healthcheck?.test ?? ''))) problem('gateway: the healthcheck does not ask /readyz');
if (!/pg_isready/.test(JSON.stringify(postgres.healthcheck?.test ?? ''))) problem('postgres: the healthcheck does not run pg_isready');
if (!/redis-cli.*ping/.test(JSON.stringify(redis.healthcheck?.test ?? ''))) problem('redis: the healthcheck does not run redis-cli ping');
const waitsFor = (service, dependency, condition) => service.depends_on?.[dependency]?.condition === condition;
if (!waitsFor(gateway, 'postgres', 'service_healthy')) problem('gateway: does not wait for a healthy postgres');
if (!waitsFor(gateway, 'redis', 'service_healthy')) problem('gateway: does not wait for a healthy redis');
if (!waitsFor(gateway, 'migrate', 'service_completed_successfully')) problem('gateway: does not wait for the migrations');
if (!waitsFor(migrate, 'postgres', 'service_healthy')) problem('migrate: does not wait for a healthy postgres');
if (!(migrate.command ?? []).includes('migration:run')) problem('migrate: does not run migration:run');
if (gateway.build === undefined || gateway.image !== migrate.image) problem('gateway and migrate: not the same built image');
if (!(gateway.ports ?? []).some((port) => String(port).endsWith(':3000'))) problem('gateway: port 3000 is not published');

// The service's environment: the production shape, wired to the other two, secrets from outside the file.
const env = Object.fromEntries(Object.entries(gateway.environment ?? {}).map(([key, value]) => [key, String(value)]));
if (env.NODE_ENV !== 'production') problem('gateway: NODE_ENV is not production');
if (!/^postgres:\/\/[^@]+@postgres:5432\//.test(env.DATABASE_URL ?? '')) problem('gateway: DATABASE_URL does not point at the postgres service');
if (!/^redis:\/\/redis:6379/.test(env.REDIS_URL ?? '')) problem('gateway: REDIS_URL does not point at the redis service');
for (const secret of ['JWT_SECRET', 'ADMIN_API_KEY', 'ENCRYPTION_KEY']) {
  if (!/^\$\{[A-Z_]+:\?[^}]+\}$/.test(env[secret] ?? '')) problem(`gateway: ${secret} must come from outside the file as \${${secret}:?...}`);
}
if (JSON.stringify(migrate.environment) !== JSON.stringify(gateway.environment)) problem('migrate: not the same environment as gateway');
if (!/\$\{POSTGRES_PASSWORD:\?/.test(postgres.environment?.POSTGRES_PASSWORD ?? '')) problem('postgres: POSTGRES_PASSWORD must come from outside');

// A variable .env.example lists, set or commented out (`# NODE_ENV=production`).
const known = new Set([...readFileSync(join(root, '.env.example'), 'utf8').matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]));
for (const name of Object.keys(env)) if (!known.has(name)) problem(`gateway: ${name} is not a variable the service reads (.env.example)`);

// The service's configuration check accepts it, once compose has put in the secrets (random ones here).
const loadConfigPath = join(root, 'dist/src/config/load-config.js');
if (!existsSync(loadConfigPath)) {
  problem('dist/ is missing: run npm run build first (the environment is checked with the built loadConfig)');
} else {
  const given = {
    POSTGRES_PASSWORD: randomBytes(24).toString('hex'),
    JWT_SECRET: randomBytes(48).toString('base64'),
    ADMIN_API_KEY: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  // `${NAME:-default}` takes its default when NAME is not given (as compose does); `${NAME:?message}` requires NAME.
  const interpolate = (text) => text.replace(/\$\{([A-Z_]+)(?::([?-])([^}]*))?\}/g, (_, name, operator, rest) => given[name] ?? (operator === '-' ? rest : ''));
  const { loadConfig } = require(loadConfigPath);
  try {
    loadConfig(Object.fromEntries(Object.entries(env).map(([key, value]) => [key, interpolate(value)])));
  } catch (error) {
    problem(`gateway: the service would refuse this environment:\n${error.message}`);
  }
}

if (problems.length > 0) {
  console.error(problems.map((text) => `docker-compose.yml: ${text}`).join('\n'));
  process.exit(1);
}
console.log('compose: docker-compose.yml OK (gateway, migrate, postgres, redis)');
