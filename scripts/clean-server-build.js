// `npm run build` starts from a clean compiled service (dist/src, dist/ormconfig.js), as nest's deleteOutDir
// would, but keeps dist/console: the console is rebuilt only when its sources change (scripts/build-console.js).
const { rmSync } = require('node:fs');
const { join, resolve } = require('node:path');

const dist = resolve(__dirname, '..', 'dist');
for (const path of ['src', 'ormconfig.js', 'ormconfig.js.map', 'tsconfig.build.tsbuildinfo']) {
  rmSync(join(dist, path), { recursive: true, force: true });
}
