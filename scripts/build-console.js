// Builds the Gateway Management console (console/, React + Vite) into dist/console, which the service serves under
// /console. Skips the build when nothing it is made from changed since the last one (a hash of the console's
// sources, the service files it shares, its Vite config and package-lock.json, kept in dist/console/.source-hash), so `npm start` and
// `npm test` stay fast once it is built. `--force` builds anyway.
const { createHash } = require('node:crypto');
const { existsSync, readFileSync, readdirSync, writeFileSync } = require('node:fs');
const { join, relative, resolve } = require('node:path');

const root = resolve(__dirname, '..');
const consoleDir = join(root, 'console');
const outDir = join(root, 'dist', 'console');
const stampFile = join(outDir, '.source-hash');
const configFile = join(consoleDir, 'vite.config.mts');
// Files of the service the console imports: modules with no imports of their own, written to be shared.
const sharedFiles = [join(root, 'src', 'actions', 'schema', 'schema-mistakes.ts')];

function files(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)]))
    .sort();
}

function sourceHash() {
  const hash = createHash('sha256');
  const inputs = [...files(join(consoleDir, 'src')), ...sharedFiles, join(consoleDir, 'index.html'), configFile, join(root, 'package-lock.json')];
  for (const file of inputs) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

async function main() {
  const force = process.argv.includes('--force');
  const hash = sourceHash();
  const built = existsSync(join(outDir, 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash;
  if (built && !force) {
    console.log('console: up to date (dist/console)');
    return;
  }
  console.log('console: building into dist/console ...');
  const { build } = await import('vite');
  await build({ configFile, logLevel: 'warn' });
  writeFileSync(stampFile, hash);
  console.log('console: built');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
