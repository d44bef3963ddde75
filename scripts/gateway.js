// `npm run gateway -- <command>`: the command line (src/cli/gateway.ts). A checkout with no build yet is built
// first, with the build's output on stderr, so stdout carries nothing but the command's own output (its JSON).
const { existsSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const entry = join(root, 'dist', 'src', 'cli', 'gateway.js');
if (!existsSync(entry)) {
  // The npm that runs this script (npm_execpath), else the one on PATH.
  const [command, args] = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  const build = spawnSync(command, [...args, 'run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (build.error) {
    console.error(`cannot build the command line (npm run build): ${build.error.message}`);
    process.exit(1);
  }
  if (build.status !== 0) process.exit(build.status ?? 1);
}
require(entry);
