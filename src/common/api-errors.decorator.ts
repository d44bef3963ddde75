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
  413: { description: 'Body over 1 MB', example: { error: 'Payload too large' } },
  429: { description: 'Rate limit exceeded (see Retry-After)', example: { error: 'Rate limit exceeded' } },
  503: { description: 'The database is unreachable, or its migrations are pending', example: { error: 'Service unavailable' } },
};

export const ApiErrors = (...statuses: number[]) =>
  applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: ERROR_EXAMPLES[status].description, type: ErrorBody, example: ERROR_EXAMPLES[status].example })),
  );
