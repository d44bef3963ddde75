// Writes openapi.json from the built service (npm run openapi), so the committed description cannot drift from
// the code: CI regenerates it and fails on any difference. Preview mode builds the module graph without
// instantiating providers, so no database is needed.
const { mkdtempSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');

const dist = resolve(__dirname, '..', 'dist', 'src');
const { AppModule } = require(join(dist, 'app.module.js'));
const { loadConfig } = require(join(dist, 'config', 'load-config.js'));
const { buildOpenApiDocument } = require(join(dist, 'openapi', 'document.js'));

async function main() {
  const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'agw-openapi-')), LOG_LEVEL: 'silent' });
  const app = await NestFactory.create(AppModule.forRoot(config), new FastifyAdapter(), { preview: true, logger: false });
  const document = buildOpenApiDocument(app);
  const target = resolve(__dirname, '..', 'openapi.json');
  writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`wrote ${target}: ${Object.keys(document.paths).length} paths`);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
