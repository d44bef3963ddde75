import { getSchemaPath } from '@nestjs/swagger';
import type { OperationObject, ParameterObject, PathItemObject } from '@nestjs/swagger';
import { WebhookAnswerDto } from '../webhooks/dto/webhook-answer.dto';
import { WebhookCallDto } from '../webhooks/dto/webhook-call.dto';

/**
 * The calls the service makes to a webhook URL (spec 2.4, 2.5, 5.3, 6), as OpenAPI 3.1 `webhooks`: what a
 * receiver implements. docs/receivers.md has the whole story; this is the machine-readable part.
 */
export const WEBHOOK_MODELS = [WebhookCallDto, WebhookAnswerDto];

/**
 * How a receiver knows a call is the service's. OpenAPI has no HMAC scheme, so this names the header that
 * carries it; the body `signature` is the spec's own, older form of the same proof.
 */
export const WEBHOOK_SIGNATURE_SCHEME = {
  type: 'apiKey' as const,
  in: 'header',
  name: 'webhook-signature',
  description:
    'Not a static key: an HMAC-SHA256 of the call made with the tenant\'s HMAC key (Standard Webhooks, and the body\'s ' +
    '`signature`, spec 5.3). Verify it with any Standard Webhooks library (https://www.standardwebhooks.com/) given the whole ' +
    '`whsec_…` key; the body\'s `signature` is the hex HMAC-SHA256, keyed with the whole key\'s UTF-8 bytes, of the raw body ' +
    'without its `,"signature":"…"`. Compare in constant time; answer 401 `{"error":"Invalid signature"}` on a mismatch.',
};

const header = (name: string, description: string, required: boolean, schema: ParameterObject['schema']): ParameterObject => ({
  name,
  in: 'header',
  required,
  description,
  schema,
});

const standardWebhookHeaders = (signed: boolean): ParameterObject[] => [
  header('webhook-id', 'Standard Webhooks: the delivery id; for an execution, the execution id, the same on every retry', true, {
    type: 'string',
    example: '0b9f3c1e-6d2a-4f7e-9a41-3c5e8d7b2a10',
  }),
  header('webhook-timestamp', 'Standard Webhooks: Unix seconds of this attempt; refuse one more than 5 minutes from your clock', true, {
    type: 'string',
    pattern: '^[0-9]+$',
    example: '1767225600',
  }),
  header(
    'webhook-signature',
    'Standard Webhooks: `v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<raw body>` with the base64-decoded ' +
      'part of each active key after `whsec_`, one per key, separated by spaces' +
      (signed ? '' : '. Absent when the tenant has no HMAC key yet (spec 5.3.7)'),
    signed,
    { type: 'string', example: 'v1,8LIw0gYr4nRx6mH2FvY7EyzePhq+J6KjWMcinf0omfk=' },
  ),
  header(
    'traceparent',
    'W3C Trace Context: the trace this call belongs to, whose parent is the gateway\'s span of this attempt (tracing on) or ' +
      'the caller\'s span (tracing off); a new trace when the caller sent none. Not signed: do not trust it for anything but tracing',
    true,
    { type: 'string', pattern: '^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$', example: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
  ),
  header('tracestate', 'W3C Trace Context: the caller\'s tracestate, passed on when it sent one', false, { type: 'string', example: 'platform=abc' }),
];

const callBody = (example: Record<string, unknown>): OperationObject['requestBody'] => ({
  required: true,
  description:
    'Compact JSON in this key order, every character outside printable ASCII escaped as \\uXXXX; a Python ' +
    '`json.dumps(payload, separators=(",", ":"))` of the parsed body without `signature` gives the signed bytes back.',
  content: { 'application/json': { schema: { $ref: getSchemaPath(WebhookCallDto) }, example } },
});

const invalidSignature = {
  description: 'The receiver refuses a call whose signature does not verify (the reference handler\'s answer, spec 5.3.6)',
  content: { 'application/json': { example: { error: 'Invalid signature' } } },
};

export const WEBHOOKS: Record<string, PathItemObject> = {
  actionExecution: {
    post: {
      operationId: 'receiveActionExecution',
      summary: 'An execution: the signed POST the service sends to the action\'s webhook_url',
      description:
        'Sent by executeAction. Verify both signatures on the raw body (as the webhookSignature scheme says), run the action, answer ' +
        '{result, error} within 30 seconds. Connection failures, 429 and 5xx answers are retried with the same ' +
        'webhook-id while the 30-second budget lasts (Retry-After is honoured). The examples are signed with the key ' +
        '`whsec_c2VjcmV0LWtleS1mb3ItZG9jcy1leGFtcGxlLTEyMzQ=`.',
      security: [{ webhookSignature: [] }],
      parameters: standardWebhookHeaders(true),
      // The example of docs/receivers.md: signed with the key whsec_c2VjcmV0LWtleS1mb3ItZG9jcy1leGFtcGxlLTEyMzQ=.
      requestBody: callBody({
        action_name: 'get_weather',
        parameters: { city: 'Zürich', days: 2 },
        timestamp: 1767225600,
        signature: 'b2efa497c8ff756c12d0c2f52fc91d5928c55ecb4fe9a35bc0ba4f2fdeeda7cd',
      }),
      responses: {
        '200': {
          description: 'Any 2xx with this body: an empty error means the execution succeeded, any other text that it failed',
          content: { 'application/json': { schema: { $ref: getSchemaPath(WebhookAnswerDto) } } },
        },
        '401': invalidSignature,
        '429': { description: 'Retried after Retry-After (seconds or an HTTP date) when that fits in the budget' },
        '5XX': { description: 'Retried with backoff while the budget lasts' },
      },
    },
  },
  registrationTest: {
    post: {
      operationId: 'receiveRegistrationTest',
      summary: 'The registration test: sent by createAction, and by updateAction when webhook_url changes',
      description:
        '`parameters` is {} and `test` is true. Signed like an execution when the tenant has an HMAC key; without a key ' +
        'it has neither `signature` nor `webhook-signature`, so it proves nothing about the sender: only answer it.',
      // Unsigned while the tenant has no HMAC key: the empty requirement says the signature may be absent.
      security: [{ webhookSignature: [] }, {}],
      parameters: standardWebhookHeaders(false),
      requestBody: callBody({ action_name: 'get_weather', parameters: {}, timestamp: 1767225600, test: true }),
      responses: {
        '200': { description: 'Any 2xx passes; the body is not read' },
        '401': invalidSignature,
      },
    },
  },
};
