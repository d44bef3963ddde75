import type { FastifyInstance } from 'fastify';

/**
 * A response body already serialized as JSON, sent as it is: a body that gives back JSON as it was written (an
 * action's json_schema, see json-text.ts), or one shared by many requests and serialized once.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** Replies are serialized with JSON.stringify, but for a JsonText, which is sent as it is. */
export function registerJsonTextSerializer(fastify: FastifyInstance): void {
  fastify.setReplySerializer((payload) => (payload instanceof JsonText ? payload.text : JSON.stringify(payload)));
}
