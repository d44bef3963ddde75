import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';

/**
 * `GET /` on a development service: to the console, where a person who opened the service's address in a
 * browser wanted to go. Registered outside production only (RootRedirectHttpModule), so in production `/` stays
 * an unknown route, `404 Not found`, like any other (docs/decisions.md, "Running").
 */
@ApiExcludeController()
@Controller()
export class RootRedirectController {
  @Get()
  toConsole(@Res() reply: FastifyReply): void {
    void reply.redirect('/console', 302);
  }
}
