import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RouteNotFoundError } from '../common/common.errors';
import { AppConfig } from '../config/app-config';
import { logoSource } from '../config/portal-config';
import { CONSOLE_ASSETS_PATH, consoleBuildDir } from './console-files';
import { consolePageHeaders, NONCE_PLACEHOLDER } from './console-security-headers';
import { pageSettings, pageSettingsMeta } from './page-settings';

const NOT_BUILT = '<!doctype html><title>Console not built</title><p>The console is not built: run <code>npm run build:console</code>.</p>';

/**
 * The console's one page (a single-page application): every path under /console answers index.html, with a
 * fresh CSP nonce and the security headers; the scripts and styles it loads come from /console/assets/.
 */
@ApiExcludeController()
@Controller()
export class ConsolePageController {
  private readonly frameAncestors: readonly string[];
  /** Where images may come from besides the service: the portal's logo, if any. */
  private readonly imageSources: readonly string[];
  /** The page's settings (page-settings.ts), the same for every response. */
  private readonly settingsMeta: string;
  private page?: string;

  constructor(config: AppConfig) {
    this.frameAncestors = config.console.frameAncestors;
    const { logoUrl } = config.console.portal;
    this.imageSources = logoUrl ? [logoSource(logoUrl)] : [];
    this.settingsMeta = pageSettingsMeta(pageSettings(config));
  }

  @Get(['console', 'console/*'])
  serve(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): string {
    // A missing asset is a 404, not the page (a script tag must never receive HTML).
    if (request.url.startsWith(CONSOLE_ASSETS_PATH)) throw new RouteNotFoundError();
    const nonce = randomBytes(16).toString('base64');
    reply.headers(consolePageHeaders(nonce, this.frameAncestors, this.imageSources)).type('text/html; charset=utf-8');
    const page = this.readPage();
    if (!page) {
      reply.status(503);
      return NOT_BUILT;
    }
    return page.replaceAll(NONCE_PLACEHOLDER, nonce);
  }

  private readPage(): string | undefined {
    if (this.page === undefined) {
      try {
        this.page = readFileSync(join(consoleBuildDir(), 'index.html'), 'utf8').replace('</head>', `${this.settingsMeta}</head>`);
      } catch {
        return undefined; // not built yet: looked for again at the next request
      }
    }
    return this.page;
  }
}
