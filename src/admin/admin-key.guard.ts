import { createHash, timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { InvalidTokenError } from '../common/common.errors';
import { AppConfig } from '../config/app-config';

/** The management API takes `Authorization: Bearer <ADMIN_API_KEY>`, compared in constant time. */
@Injectable()
export class AdminKeyGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(config: AppConfig) {
    this.expected = digest(config.adminApiKey);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const match = /^Bearer (\S+)$/i.exec(header);
    if (!match || !timingSafeEqual(digest(match[1]), this.expected)) throw new InvalidTokenError();
    return true;
  }
}

// Comparing digests keeps the comparison constant-time whatever the length of what was sent.
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
