// `npm run build` starts from an empty dist/, as the compiled service must not keep files whose sources are gone,
// except dist/console: the console is rebuilt only when its sources change (scripts/build-console.js).
const { readdirSync, rmSync } = require('node:fs');
const { join, resolve } = require('node:path');

const dist = resolve(__dirname, '..', 'dist');
let entries = [];
try {
  entries = readdirSync(dist);
} catch {
  // no dist/ yet
}
for (const entry of entries) {
  if (entry !== 'console') rmSync(join(dist, entry), { recursive: true, force: true });
}
