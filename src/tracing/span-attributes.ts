/**
 * Every span attribute the service sets, by name (docs/operations.md, "Tracing", lists them). Ids, names,
 * statuses, counts and outcomes only: never a secret (a token, a key, a signature), a parameter value, a
 * receiver's body or a webhook URL (which may carry a secret in its path or query), only its host and port.
 */
export const ATTRIBUTE = {
  // OpenTelemetry's semantic conventions (HTTP, database, errors, MCP).
  httpMethod: 'http.request.method',
  httpRoute: 'http.route',
  httpStatus: 'http.response.status_code',
  httpResendCount: 'http.request.resend_count',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  urlScheme: 'url.scheme',
  errorType: 'error.type',
  dbSystem: 'db.system.name',
  mcpMethod: 'mcp.method.name',
  toolName: 'gen_ai.tool.name',
  // The gateway's own.
  requestId: 'gateway.request_id',
  tenantId: 'gateway.tenant.id',
  authMethod: 'gateway.auth.method',
  actionName: 'gateway.action.name',
  executionId: 'gateway.execution.id',
  executionStatus: 'gateway.execution.status',
  attempts: 'gateway.webhook.attempts',
  attempt: 'gateway.webhook.attempt',
  webhookKind: 'gateway.webhook.kind',
  webhookOutcome: 'gateway.webhook.outcome',
  readModelCache: 'gateway.read_model.cache',
  readModelSource: 'gateway.read_model.source',
  schemaCheck: 'gateway.schema.check',
  schemaValid: 'gateway.schema.valid',
} as const;
