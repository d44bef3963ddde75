import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { invalid, ApiErrors } from './api-errors.decorator';
import { InvalidRequestError } from './common.errors';
import { PAGE_SIZE, PageQuery, parsePageLimit } from './paged-list';

/** `?limit` and `?cursor` of a paged management list, read into a PageQuery (PagedList checks the cursor). */
export const PageParams = createParamDecorator((_data: unknown, context: ExecutionContext): PageQuery => {
  const { limit, cursor } = context.switchToHttp().getRequest<{ query: Record<string, unknown> }>().query;
  if (cursor !== undefined && typeof cursor !== 'string') throw new InvalidRequestError('cursor: is not a cursor this list gave (send next_cursor as it came)');
  return { limit: parsePageLimit(limit), cursor };
});

/** The OpenAPI description of a paged list's query. */
export const ApiPaged = () =>
  applyDecorators(
    ApiQuery({
      name: 'limit',
      required: false,
      description: `How many items a page holds; at most ${PAGE_SIZE}, whatever is asked`,
      schema: { type: 'integer', minimum: 1, default: PAGE_SIZE },
    }),
    ApiQuery({ name: 'cursor', required: false, description: 'The `next_cursor` of the page before, as it came: the page after it', schema: { type: 'string' } }),
    ApiErrors(invalid('cursor: is not a cursor this list gave (send next_cursor as it came)', { error: 'Invalid request', details: 'limit: must be a positive integer' })),
  );

/** The `next_cursor` field of a paged list's answer. */
export const NEXT_CURSOR_PROPERTY = {
  type: 'string',
  nullable: true,
  description: 'The cursor of the next page (send it as `?cursor=`), or null on the last page',
} as const;
