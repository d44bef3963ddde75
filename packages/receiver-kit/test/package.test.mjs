// What `npm publish` would ship: the built entry points, the declarations, README and LICENSE, nothing else.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';

const root = new URL('..', import.meta.url);

it('packs only what a receiver needs, and every entry point it names', () => {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const packed = spawnSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  assert.equal(packed.status, 0, packed.stderr);
  const files = JSON.parse(packed.stdout)[0].files.map((file) => file.path).sort();
  assert.deepEqual(files, [
    'LICENSE',
    'README.md',
    'dist/cjs/index.d.ts',
    'dist/cjs/index.js',
    'dist/cjs/package.json',
    'dist/types/index.d.ts',
    'package.json',
    'src/index.js',
  ]);
  const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  assert.equal(manifest.dependencies, undefined);
  const named = [manifest.main, manifest.types, ...Object.values(manifest.exports['.']).flatMap((condition) => Object.values(condition))];
  for (const path of named) assert.ok(files.includes(path.replace(/^\.\//, '')), `${path} is not packed`);
});
