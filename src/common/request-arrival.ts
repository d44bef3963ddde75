import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AsOf } from '../database/read-scope';

declare module 'fastify' {
  interface FastifyRequest {
    /** `performance.now()` as the request arrived (app.factory.ts): how fresh its reads must be (AsOf). */
    arrivedAt: number;
  }
}

/** When the request arrived, for the reads made on its behalf: see AsOf. */
export const ArrivedAt = createParamDecorator((_: unknown, context: ExecutionContext): AsOf => context.switchToHttp().getRequest<FastifyRequest>().arrivedAt);
