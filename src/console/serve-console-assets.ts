import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CONSOLE_ASSETS_PATH, consoleBuildDir } from './console-files';

/**
 * The console's scripts, styles and images (@fastify/static). Their names carry a content hash, so browsers may
 * keep them for a year.
 */
export function serveConsoleAssets(app: NestFastifyApplication): void {
  app.useStaticAssets({
    root: join(consoleBuildDir(), 'assets'),
    prefix: CONSOLE_ASSETS_PATH,
    index: false,
    immutable: true,
    maxAge: '365d',
    setHeaders: (response) => response.setHeader('x-content-type-options', 'nosniff'),
  });
}
