import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';

export const BODY_LIMIT_BYTES = 1_048_576;

/**
 * JSON is the only body the service reads (any other type is a 400). Unlike Fastify's own parser, an empty body
 * is no body (clients send Content-Type on DELETE too), and `__proto__` or `constructor.prototype` keys are
 * refused rather than silently dropped.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
      } catch (error) {
        done(Object.assign(error as Error, { statusCode: 400 }));
      }
    },
  );
}
