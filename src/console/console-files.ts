import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const CONSOLE_PATH = '/console';
export const CONSOLE_ASSETS_PATH = `${CONSOLE_PATH}/assets/`;

/**
 * Where `npm run build:console` puts the console: `dist/console` of the package, found from this file whether it
 * runs compiled (dist/src/console, the Docker image) or from source (the tests).
 */
export function consoleBuildDir(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return join(dir, 'dist', 'console');
}
