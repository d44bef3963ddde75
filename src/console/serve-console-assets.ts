import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
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
    // @fastify/static 10 hands over the reply (Nest's option type still names a raw response).
    setHeaders: (reply) => void (reply as unknown as FastifyReply).header('x-content-type-options', 'nosniff'),
  });
}
