import Negotiator from 'negotiator';
import { Body, Controller, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentTenant } from '../../auth/current-principal.decorator';
import { ApiErrors } from '../../common/api-errors.decorator';
import { TenantAuthenticated } from '../../auth/tenant-authenticated.decorator';
import { ForwardsAsWritten } from '../../common/json-body.interceptor';
import { GATEWAY_PREFIX } from '../../common/routes';
import { TenantId } from '../../common/tenant-id';
import { McpEndpoint } from './mcp-endpoint';
import { OriginNotAllowedError } from './mcp.errors';
import { McpOriginGuard } from './mcp-origin.guard';

/** The request headers the Streamable HTTP transport reads. */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];
const ORIGIN_REFUSED = new OriginNotAllowedError();
const JSON_RPC_EXAMPLE = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'Oslo' } } };

@ApiTags('tools')
@ApiBearerAuth()
@Controller(GATEWAY_PREFIX)
// On the class: it runs before the route's own guards (the bearer token, the rate limit).
@UseGuards(McpOriginGuard)
export class McpController {
  constructor(private readonly mcp: McpEndpoint) {}

  @Post('mcp')
  @TenantAuthenticated()
  @ForwardsAsWritten()
  @ApiOperation({
    operationId: 'mcpRequest',
    summary: 'Model Context Protocol server (Streamable HTTP, stateless): tools/list and tools/call over the tenant\'s actions',
    description:
      'One JSON-RPC message per POST (a batch, an array, is the gateway\'s 400 like any body that is not an object); answers are JSON, so any `Accept` that admits JSON ' +
      '(`application/json, text/event-stream` as MCP clients send it, `application/json`, `*/*`, none) is served. GET and DELETE are 405 ' +
      '(no sessions, no server-sent stream). A 401 carries `WWW-Authenticate: Bearer realm="action-gateway"`. Every POST counts ' +
      'against the rate limit; past it the answer is the gateway\'s 429, not a JSON-RPC message. A request whose `Origin` is neither the gateway\'s own ' +
      '(PUBLIC_URL, or the address it was reached at) nor one of MCP_ALLOWED_ORIGINS is 403, before its token is read; one without `Origin` is served. See docs/llm-tools.md.',
  })
  @ApiBody({ schema: { type: 'object', additionalProperties: true, example: JSON_RPC_EXAMPLE }, description: 'A JSON-RPC 2.0 request or notification' })
  @ApiResponse({ status: 200, description: 'The JSON-RPC response', schema: { type: 'object', additionalProperties: true } })
  @ApiResponse({ status: 202, description: 'A notification was accepted (no body)' })
  @ApiResponse({
    status: 400,
    description: 'A body that is not a JSON object (the gateway\'s error body), or not a JSON-RPC message (a JSON-RPC error, code -32700)',
    schema: { type: 'object', additionalProperties: true },
  })
  @ApiResponse({ status: 406, description: 'Accept excludes application/json (a JSON-RPC error)', schema: { type: 'object', additionalProperties: true } })
  @ApiErrors(401, { status: 403, examples: [{ error: ORIGIN_REFUSED.message, details: ORIGIN_REFUSED.details }] }, 413, 429)
  async handle(
    @CurrentTenant() tenantId: TenantId,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ): Promise<void> {
    const response = await this.mcp.handle(tenantId, toWebRequest(request), body, request.arrivedAt, request.trace, request.headers['idempotency-key']);
    reply.status(response.status);
    response.headers.forEach((value, name) => {
      reply.header(name, name === 'content-type' && value === 'application/json' ? 'application/json; charset=utf-8' : value);
    });
    const text = await response.text();
    reply.send(text === '' ? undefined : text);
  }
}

/**
 * The transport reads web-standard requests; the body is passed to it already parsed. It insists on an `Accept`
 * listing both JSON and SSE and on `Content-Type: application/json`; this server only ever answers JSON, so any
 * client that accepts JSON (`*\/*`, `application/json`, or no `Accept` at all: HTTP's "anything") is served,
 * and a body with no `Content-Type` is JSON, as on every other route (docs/decisions.md). An `Accept` that
 * excludes JSON still gets the transport's 406.
 */
function toWebRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const name of TRANSPORT_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  // What the transport checks (by substring): both types, or, for a client that excludes JSON, not both.
  headers.set('accept', acceptsJson(headers.get('accept')) ? 'application/json, text/event-stream' : 'text/event-stream');
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return new Request(`http://localhost/${GATEWAY_PREFIX}/mcp`, { method: 'POST', headers });
}

/** What this server answers with: the offer an `Accept` is negotiated against. */
const JSON_ANSWER = ['application/json; charset=utf-8'];

/**
 * Whether an `Accept` header admits the JSON answer, by `negotiator` (RFC 9110, 12.5.1: the most specific range
 * that matches decides, so `*\/*, application/json;q=0` does not; a range's parameters must match, so
 * `application/json;charset=latin1` does not). Absent or empty: it admits anything, as HTTP reads a missing one.
 */
function acceptsJson(accept: string | null): boolean {
  if (accept === null || accept.trim() === '') return true;
  return new Negotiator({ headers: { accept } }).mediaType(JSON_ANSWER) !== undefined;
}
