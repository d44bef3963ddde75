import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';

/** The query parameters of an execution list, for the OpenAPI description; `tenantWide` adds `action`. */
export const ApiExecutionListQuery = (tenantWide: boolean) =>
  applyDecorators(
    ApiQuery({ name: 'limit', required: false, description: 'How many, newest first; at most 100 are listed, whatever is asked', schema: { type: 'integer', minimum: 1, default: 20 } }),
    ApiQuery({ name: 'status', required: false, schema: { type: 'string', enum: ['succeeded', 'failed', 'pending', 'running'] } }),
    ...(tenantWide ? [ApiQuery({ name: 'action', required: false, description: 'Only this action\'s executions (its name)', schema: { type: 'string' } })] : []),
    ApiQuery({ name: 'since', required: false, description: 'Only executions created at or after this RFC 3339 date-time', schema: { type: 'string', format: 'date-time' } }),
    ApiQuery({ name: 'until', required: false, description: 'Only executions created before this RFC 3339 date-time', schema: { type: 'string', format: 'date-time' } }),
    ApiQuery({ name: 'cursor', required: false, description: 'The next_cursor of the previous page', schema: { type: 'string' } }),
  );
