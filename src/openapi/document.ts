import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, OperationObject, ResponseObject, SchemaObject, SwaggerModule } from '@nestjs/swagger';
import { ERROR_EXAMPLES } from '../common/api-errors.decorator';
import { ErrorBody } from '../common/error-body';
import { GATEWAY_PREFIX } from '../common/routes';
import { WEBHOOK_MODELS, WEBHOOK_SIGNATURE_SCHEME, WEBHOOKS } from './webhooks';

const OPENAPI_JSON_PATH = `${GATEWAY_PREFIX}/openapi.json`;
const OPENAPI_UI_PATH = `${GATEWAY_PREFIX}/docs`;

const DESCRIPTION = `Tenant-scoped custom actions for a conversational-flow platform, run by signed webhooks.

**Base URL.** The interface's \`{base_url}\` ends in \`/api/v1/gateway\`; the paths below are written in full from
the origin (\`/api/v1/gateway/...\`, and the management API's \`/api/v1/admin/...\`), so the server is the bare
origin. \`/\` means the origin this document was fetched from; a generated client takes the service's origin as
its base URL, e.g. \`http://localhost:3000\` for \`npm start\`.

**Authentication.** Gateway endpoints take \`Authorization: Bearer <jwt_token>\` from \`exchangeToken\`; the
management API takes \`Authorization: Bearer <ADMIN_API_KEY>\`, or the session cookie of the Gateway Management console
(\`signIn\`, or a portal link), with \`X-CSRF-Token\` on POST, PUT, PATCH and DELETE.

**Errors.** Every error body is \`{"error": "...", "details"?: "..."}\`. Any request whose body is malformed JSON or
not a JSON object is a 400, and any body over 1,048,576 bytes a 413, on every POST, PUT, PATCH and DELETE (a DELETE
takes no body, but one that is sent is read); a GET's body is ignored.

**Headers.** Every response carries \`X-Request-Id\` (a valid incoming one is echoed). Tenant endpoints carry the
tenant's hourly budget in \`X-RateLimit-*\`; a 429 adds \`Retry-After\`.

**Webhooks.** What the service sends to an action's \`webhook_url\` is described under \`webhooks\`.`;

/** Response headers, referenced from every response that carries them. */
const HEADERS = {
  'X-Request-Id': {
    description: 'The request id, also in the service\'s logs: an incoming one of 1 to 128 characters of [A-Za-z0-9._:-] is echoed, anything else replaced',
    schema: { type: 'string', example: '5b0d3a62-4c0a-4b8e-9d5c-2f7e1a9c6b40' },
  },
  'X-RateLimit-Limit': { description: 'Requests allowed per window (the tenant\'s hour, or the exchange\'s minute per address)', schema: { type: 'integer', example: 1000 } },
  'X-RateLimit-Remaining': { description: 'Requests left in the window', schema: { type: 'integer', example: 999 } },
  'X-RateLimit-Reset': { description: 'Seconds until the oldest counted request stops counting (the budget grows by one)', schema: { type: 'integer', example: 3600 } },
  'WWW-Authenticate': {
    description:
      'The bearer challenge (RFC 6750): Bearer realm="action-gateway" (the gateway API) or realm="action-gateway-admin" (the management API), ' +
      'with error="invalid_token" and an error_description saying which mistake it was when a token was sent (an API token not exchanged, ' +
      'a token cut short, an expired one, the admin key sent to the gateway API or a tenant\'s token to the management API, a wrong admin key)',
    schema: {
      type: 'string',
      example: 'Bearer realm="action-gateway", error="invalid_token", error_description="The bearer token expired: exchange the API token for a new one"',
    },
  },
  'Retry-After': { description: 'Seconds to wait before the next request can pass', schema: { type: 'integer', example: 42 } },
};

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/** The description of a success response declared without one. */
const SUCCESS_DESCRIPTIONS: Record<string, string> = { '200': 'OK', '201': 'Created', '204': 'No content' };

/** Schema facts the DTO decorators cannot express. */
const SCHEMA_ADDITIONS: Record<string, Partial<SchemaObject>> = {
  // Unknown and read-only fields are ignored, so one of the three must be present, not just any field.
  UpdateActionRequest: {
    anyOf: [{ required: ['description'] }, { required: ['webhook_url'] }, { required: ['json_schema'] }],
    description: 'At least one of description, webhook_url, json_schema (other fields are ignored)',
  },
  // Unlike the action bodies, execute refuses other fields: parameters sent at the top level would run with {}.
  ExecuteActionRequest: {
    additionalProperties: false,
    description: 'The parameters go inside `parameters`; any other field is a 400 naming it',
  },
};

/** The OpenAPI description of the gateway and management APIs, built from the controllers' decorators. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Action Gateway')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .setLicense('Apache-2.0', 'https://www.apache.org/licenses/LICENSE-2.0')
    .addServer('/', 'The origin serving this document; the spec\'s {base_url} is this origin followed by /api/v1/gateway')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The jwt_token from exchangeToken (24 hours)' })
    // Not addBearerAuth: it would call the admin key a JWT, which it is not.
    .addSecurity('admin', { type: 'http', scheme: 'bearer', description: 'The service\'s ADMIN_API_KEY' })
    .addSecurity('console', { type: 'apiKey', in: 'cookie', name: 'agw_console_session', description: 'A console session (signIn or redeemPortalLink)' })
    .addSecurity('webhookSignature', WEBHOOK_SIGNATURE_SCHEME)
    .addTag('auth', 'The token exchange')
    .addTag('actions', 'A tenant\'s actions')
    .addTag('executions', 'Running an action as the platform does, and its log')
    .addTag('tools', 'The tenant\'s actions as tools for language-model agents: definitions per provider, and the MCP server')
    .addTag('admin', 'The management API the admin panel calls (tenants, API tokens, HMAC keys, a tenant\'s actions and executions)')
    .addTag('console', 'Sessions of the Gateway Management console and portal links')
    .build();
  const document = SwaggerModule.createDocument(app, { ...config, webhooks: WEBHOOKS }, { extraModels: WEBHOOK_MODELS });
  document.components = { ...document.components, headers: HEADERS };
  for (const [name, addition] of Object.entries(SCHEMA_ADDITIONS)) {
    Object.assign(document.components.schemas?.[name] ?? {}, addition);
  }
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      if (!operation) continue;
      // A success declared by its type alone has an empty description, which OpenAPI requires and linters flag.
      for (const [status, response] of Object.entries(operation.responses) as [string, ResponseObject][]) {
        if (!response.description) response.description = SUCCESS_DESCRIPTIONS[status] ?? operation.summary ?? status;
      }
      describeSharedAnswers(operation, operation === item.delete);
      describeResponseHeaders(operation);
    }
  }
  return document;
}

const UUID_PATH_PARAMETERS = new Set(['tenant_id', 'token_id', 'key_id', 'execution_id']);

/**
 * What every operation of a kind can answer, whichever controller declares it: a 503 when the database is
 * unreachable or its migrations are pending (every operation reads it); a 400 and a 413 for a DELETE sent a body; on the management API with a console
 * session, a 403 for a change without the session's X-CSRF-Token, or a tenant session on an operation for
 * operators. Ids in paths are UUIDs.
 */
function describeSharedAnswers(operation: OperationObject, isDelete: boolean): void {
  const responses = operation.responses as Record<string, ResponseObject>;
  const error = ({ description, example }: { description: string; example: ErrorBody }): ResponseObject => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' }, example } },
  });
  responses['503'] ??= error(ERROR_EXAMPLES[503]);
  if (isDelete) {
    // A DELETE takes no body, but one that is sent is read like any other.
    const description = 'A body was sent (none is needed) and it is malformed or not a JSON object';
    responses['400'] ??= error({ description, example: { error: 'Invalid request', details: 'body: must be a JSON object' } });
    responses['413'] ??= error(ERROR_EXAMPLES[413]);
  }
  // The management API's operations (admin key or console session); the session's own operations say their own.
  const management = ['console', 'admin'].every((scheme) => operation.security?.some((requirement) => scheme in requirement));
  if (management) {
    const console403 = 'With a console session: X-CSRF-Token missing or wrong on POST, PUT, PATCH or DELETE, or a tenant session on an operation for operators';
    if (responses['403']) responses['403'].description = `${responses['403'].description}; or: ${console403}`;
    else responses['403'] = error({ description: console403, example: { error: 'Missing or invalid CSRF token' } });
  }
  for (const parameter of operation.parameters ?? []) {
    if ('name' in parameter && parameter.in === 'path' && UUID_PATH_PARAMETERS.has(parameter.name)) parameter.schema = { type: 'string', format: 'uuid' };
  }
}

/**
 * The headers each response carries: `X-Request-Id` on all of them; the bearer challenge on a 401 (of the gateway
 * API and of the management API); on tenant endpoints the budget headers once the bearer token has passed (not on a
 * 413, refused while the body is read); on any 429 `Retry-After` with the budget of the limit that refused it (the
 * tenant's, or the exchange's per address).
 */
function describeResponseHeaders(operation: OperationObject): void {
  const tenantScoped = operation.security?.some((requirement) => 'bearer' in requirement) ?? false;
  const challenged = tenantScoped || (operation.security?.some((requirement) => 'admin' in requirement) ?? false);
  for (const [status, response] of Object.entries(operation.responses) as [string, ResponseObject][]) {
    const names = ['X-Request-Id'];
    if (status === '429') names.push(...RATE_LIMIT_HEADERS, 'Retry-After');
    else if (challenged && status === '401') names.push('WWW-Authenticate');
    else if (tenantScoped && status !== '413') names.push(...RATE_LIMIT_HEADERS);
    response.headers = { ...Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }])), ...response.headers };
  }
}

/** Serves the description as JSON and as Swagger UI. */
export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup(OPENAPI_UI_PATH, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    ui: true,
    // No validator badge: it would send the document to validator.swagger.io.
    swaggerOptions: { validatorUrl: null, displayOperationId: true },
  });
}
