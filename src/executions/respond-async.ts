import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../common/api-errors.decorator';
import { ExecutionResponse } from './dto/execution.response';
import { REPLAYED_RESPONSE_HEADER } from './idempotency';

/** The 429 an accept gives a tenant at ASYNC_EXECUTIONS_PER_TENANT (besides the hourly budget's). */
export const UNFINISHED_LIMIT_EXAMPLE = 'too many unfinished asynchronous executions: a tenant may have at most 100 pending or running';

/** What an execute route says of `Prefer: respond-async` in the OpenAPI description. */
export const ApiRespondAsync = (detail: string) =>
  applyDecorators(
    ApiHeader({
      name: 'Prefer',
      required: false,
      description:
        '`respond-async` (RFC 7240): the parameters are checked as without it (the same 400, 404, 409), then the execution is stored ' +
        '`pending` and answered at once with 202; a replica runs it in the background (`running`, then `succeeded` or `failed`), ' +
        'with the same signing, retries and log, and a replica killed mid-call does not lose it (it is run again, under the same ' +
        'webhook-id: at least once). Other preferences are ignored.',
      schema: { type: 'string', example: 'respond-async' },
    }),
    ApiResponse({
      status: 202,
      type: ExecutionResponse,
      description: `Accepted (Prefer: respond-async): the execution, \`pending\`. ${detail}`,
      headers: {
        Location: { description: 'Where the execution is read (its status, attempts so far, and its outcome once finished)', schema: { type: 'string' } },
        'Preference-Applied': { description: '`respond-async`', schema: { type: 'string' } },
        ...REPLAYED_RESPONSE_HEADER,
      },
    }),
    ApiErrors({ status: 429, examples: [{ error: 'Rate limit exceeded' }, { error: UNFINISHED_LIMIT_EXAMPLE }] }),
  );

/** Answers an accepted execution: 202, `Preference-Applied: respond-async` and `Location: location`. */
export function accepted(reply: FastifyReply, location: string): void {
  reply.status(202).header('Preference-Applied', 'respond-async').header('Location', location);
}
