import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBody } from './error-body';

/** The error answers an endpoint can give, for the OpenAPI description, with the contract's texts as examples. */
export const ERROR_EXAMPLES: Record<number, { description: string; example: ErrorBody }> = {
  400: { description: 'Malformed or invalid body', example: { error: 'Invalid request', details: 'description: must be 1 to 500 characters' } },
  401: { description: 'Bearer token missing, invalid or expired', example: { error: 'Invalid token' } },
  403: { description: 'Tenant quota reached', example: { error: 'action limit reached: a tenant may have at most 100 actions' } },
  404: { description: 'Not found', example: { error: 'Action not found' } },
  409: { description: 'Conflict', example: { error: "action with name 'get_weather' already exists" } },
  410: { description: 'Gone', example: { error: 'execution cannot be replayed: its payload has expired (payloads are kept 7 days)' } },
  413: { description: 'Body over 1 MB', example: { error: 'Payload too large' } },
  415: { description: 'Content-Type is not application/json', example: { error: 'Unsupported media type', details: 'Content-Type: must be application/json' } },
  422: { description: 'The Idempotency-Key was first used with another request', example: { error: "idempotency key 'order-42' was first used with other parameters or another action: a key stands for one request" } },
  429: { description: 'Rate limit exceeded (see Retry-After)', example: { error: 'Rate limit exceeded' } },
  503: { description: 'The database is unreachable, or its migrations are pending', example: { error: 'Service unavailable' } },
};

/** An error answer whose examples are this operation's own texts rather than the general one. */
interface ErrorCase {
  status: number;
  examples: ErrorBody[];
}

/** 404 with the texts this operation answers (`Tenant not found`, ...). */
export const notFound = (...errors: string[]): ErrorCase => ({ status: 404, examples: errors.map((error) => ({ error })) });
/** 403 with this operation's text (a limit reached). */
export const forbidden = (error: string): ErrorCase => ({ status: 403, examples: [{ error }] });
/** 409 with this operation's texts. */
export const conflict = (...errors: string[]): ErrorCase => ({ status: 409, examples: errors.map((error) => ({ error })) });
/** 410 with this operation's text. */
export const gone = (error: string): ErrorCase => ({ status: 410, examples: [{ error }] });
/** 400 `Invalid request` with this operation's details (and any other error bodies it gives). */
export const invalid = (details: string, ...others: ErrorBody[]): ErrorCase => ({ status: 400, examples: [{ error: 'Invalid request', details }, ...others] });

export const ApiErrors = (...cases: Array<number | ErrorCase>) =>
  applyDecorators(
    ...cases.map((each) => {
      const { status, examples } = typeof each === 'number' ? { status: each, examples: [ERROR_EXAMPLES[each].example] } : each;
      const description = ERROR_EXAMPLES[status].description;
      if (examples.length === 1) return ApiResponse({ status, description, type: ErrorBody, example: examples[0] });
      const named = Object.fromEntries(
        examples.map((example) => {
          const name = example.details ? `${example.error}: ${example.details}` : example.error;
          return [name, { summary: name, value: example }];
        }),
      );
      return ApiResponse({ status, description, type: ErrorBody, examples: named });
    }),
  );
