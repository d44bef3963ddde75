import { createHash } from 'node:crypto';
import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import type { FastifyReply } from 'fastify';
import { InvalidRequestError } from '../common/common.errors';
import { canonicalJson } from '../webhooks/canonical-json';

/** How long a key stands for its execution (docs/decisions.md, "Idempotency keys"); the maintenance deletes it after. */
export const IDEMPOTENCY_KEY_RETENTION_MS = 24 * 3_600_000;
/** What a key may be: 1 to 255 printable ASCII characters (space included). */
const KEY = /^[\x20-\x7e]{1,255}$/;
export const INVALID_KEY = 'Idempotency-Key: must be 1 to 255 printable ASCII characters';
/** Where a `tools/call` carries its key (docs/llm-tools.md, "Retrying a call safely"). */
export const IDEMPOTENCY_META_KEY = 'io.modelcontextprotocol/idempotency-key';

/**
 * How any call of a tool is made safe to retry, as `GET /tools` says it beside the definitions and every MCP tool
 * in its `_meta`: the key's HTTP header, its `_meta` key on `tools/call`, and how long a key is kept.
 */
export const IDEMPOTENCY_KEY_USE = { header: 'Idempotency-Key', mcp_meta_key: IDEMPOTENCY_META_KEY, retention_hours: IDEMPOTENCY_KEY_RETENTION_MS / 3_600_000 } as const;

/** The header that says an answer is the stored one given again (Stripe's, and the IETF draft's). */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** Whether `key` may be an idempotency key. */
export const isIdempotencyKey = (key: string): boolean => KEY.test(key);

/** The `Idempotency-Key` header's key, undefined when there is none; 400 when it is not 1 to 255 printable characters. */
export function idempotencyKeyOf(header: string | readonly string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY.test(header)) throw new InvalidRequestError(INVALID_KEY);
  return header;
}

/**
 * What a key's request is compared by: the action's name and the parameters as they are signed (canonicalJson: the
 * caller's key order and number literals), hashed (SHA-256), so that a stored key is 32 bytes whatever the body.
 */
export function requestFingerprint(actionName: string, parameters: Record<string, unknown>): Buffer {
  return createHash('sha256').update(actionName).update('\n').update(canonicalJson(parameters)).digest();
}

/** An answer that is a key's stored execution given again says so. */
export function markReplayed(reply: FastifyReply, replayed: boolean): void {
  if (replayed) reply.header(REPLAYED_HEADER, 'true');
}

/** What an execute route says of `Idempotency-Key` in the OpenAPI description. */
export const ApiIdempotencyKey = () =>
  applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes a retry safe: 1 to 255 printable ASCII characters, chosen by the caller (a UUID), unique per request, kept 24 hours per tenant ' +
        '(whichever the action). The same key with the same action and parameters answers the execution it made, with the same id, body and ' +
        'status and `Idempotent-Replayed: true`, without calling the receiver again; with other parameters or another action, 422; while its first ' +
        'request is still running, 409 with Retry-After. The receiver\'s webhook-id is the execution\'s id, so it is the same on every retry. ' +
        'With `Prefer: respond-async`, a retry answers the same accepted execution (202) as it goes on. A retry that the checks would now refuse ' +
        '(the schema tightened since) still answers the stored execution; a request they refuse claims no key.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$', example: '5f0c7d3e-8f0b-4b7e-9d43-1f2a3b4c5d6e' },
    }),
    ApiErrors(422),
  );

/** The 409 of a key whose first request is still running, for the OpenAPI description. */
export const KEY_IN_USE_EXAMPLE = "idempotency key 'order-42' is in use by a request still running: try again in 1 s for its execution";
/** The 400 of a malformed key, for the OpenAPI description. */
export const INVALID_KEY_EXAMPLE = { error: 'Invalid request', details: INVALID_KEY };
/** The response header of an answer given again, for the OpenAPI description. */
export const REPLAYED_RESPONSE_HEADER = {
  [REPLAYED_HEADER]: { description: '`true` when this is the stored execution of an Idempotency-Key given again (the receiver was not called); absent otherwise', schema: { type: 'string', enum: ['true'] } },
};
