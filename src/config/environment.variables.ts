import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

/** Digits only; anything else (`abc`, `1.5`, `0x10`, ` `) is NaN, which the integer check then names. */
const toInt = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  return /^\s*\d+\s*$/.test(String(value)) ? Number(value) : Number.NaN;
};
const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  const text = String(value).toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(text)) return true;
  if (['false', '0', 'no', 'off'].includes(text)) return false;
  return value;
};
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/** An optional whole number within bounds, with one message that says what is expected. */
function Integer(min: number, max?: number): PropertyDecorator {
  const message = max === undefined ? `must be a whole number, at least ${min}` : `must be a whole number from ${min} to ${max}`;
  const decorators = [IsOptional(), Transform(toInt), IsInt({ message }), Min(min, { message })];
  if (max !== undefined) decorators.push(Max(max, { message }));
  return (target, property) => decorators.forEach((decorate) => decorate(target, property));
}

function Bool(): PropertyDecorator {
  const decorators = [IsOptional(), Transform(toBool), IsBoolean({ message: 'must be true or false' })];
  return (target, property) => decorators.forEach((decorate) => decorate(target, property));
}

function OneOf(values: readonly string[], hint = ''): PropertyDecorator {
  const message = `must be one of ${values.join(', ')}${hint}`;
  const decorators = [IsOptional(), Transform(emptyToUndefined), IsIn(values, { message })];
  return (target, property) => decorators.forEach((decorate) => decorate(target, property));
}

function Text(): PropertyDecorator {
  const decorators = [IsOptional(), Transform(emptyToUndefined), IsString({ message: 'must be text' })];
  return (target, property) => decorators.forEach((decorate) => decorate(target, property));
}

const NODE_ENVIRONMENTS = ['production', 'development', 'test'] as const;

/**
 * The raw environment, as the operator wrote it. Validated once at boot; nothing else reads process.env. Each
 * message completes the sentence "<VARIABLE> ..." in plain words.
 */
export class EnvironmentVariables {
  @Integer(0, 65535)
  PORT?: number;

  @Text()
  HOST?: string;

  // Anything else is refused: a typo such as `prod` must not start a development service with generated secrets.
  @OneOf(NODE_ENVIRONMENTS, ' (unset means development)')
  NODE_ENV?: (typeof NODE_ENVIRONMENTS)[number];

  @IsOptional() @Transform(emptyToUndefined) @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
  DATABASE_URL?: string;

  @Integer(1, 100)
  DATABASE_POOL_SIZE?: number;

  @Integer(100, 600_000)
  DATABASE_STATEMENT_TIMEOUT_MS?: number;

  @Integer(1, 65_536)
  READ_MODEL_CACHE_MB?: number;

  @Text()
  DATA_DIR?: string;

  @Integer(0, 65535)
  EMBEDDED_DATABASE_PORT?: number;

  @IsOptional() @Transform(emptyToUndefined) @Matches(/^rediss?:\/\//, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @Text()
  JWT_SECRET?: string;

  @OneOf(['HS256', 'HS384', 'HS512'])
  JWT_ALGORITHM?: 'HS256' | 'HS384' | 'HS512';

  @Text()
  JWT_ISSUER?: string;

  @Text()
  JWT_AUDIENCE?: string;

  @Text()
  ADMIN_API_KEY?: string;

  @Text()
  ENCRYPTION_KEY?: string;

  @Integer(1, 300_000)
  WEBHOOK_TIMEOUT_MS?: number;

  @Integer(0, 10)
  WEBHOOK_MAX_RETRIES?: number;

  /** 0 turns the circuit breaker off. */
  @Integer(0, 1_000)
  WEBHOOK_BREAKER_FAILURES?: number;

  @Integer(1, 3_600_000)
  WEBHOOK_BREAKER_COOLDOWN_MS?: number;

  @Integer(1, 3650)
  EXECUTION_RETENTION_DAYS?: number;

  @Integer(1, 3650)
  EXECUTION_PAYLOAD_RETENTION_DAYS?: number;

  /** Comma-separated words, or `none`; read by `maskedHeaderWords` (load-config.ts). */
  @Text()
  EXECUTION_PAYLOAD_MASKED_HEADERS?: string;

  @Integer(1)
  RATE_LIMIT_PER_HOUR?: number;

  @Integer(1)
  TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE?: number;

  @Integer(1)
  OPERATOR_RATE_LIMIT_PER_MINUTE?: number;

  @Integer(1)
  ADMIN_KEY_FAILURES_PER_MINUTE?: number;

  @Integer(1_500, 3_600_000)
  SCHEMA_WORKER_MS_PER_MINUTE?: number;

  @Integer(1)
  ACTIONS_PER_TENANT?: number;

  @Integer(1, 100_000)
  ASYNC_EXECUTIONS_PER_TENANT?: number;

  @Integer(0, 1_000)
  ASYNC_EXECUTION_CONCURRENCY?: number;

  @Integer(2_000, 86_400_000)
  ASYNC_EXECUTION_LEASE_MS?: number;

  @Bool()
  WEBHOOK_ALLOW_PRIVATE_NETWORKS?: boolean;

  @Bool()
  WEBHOOK_REQUIRE_HTTPS?: boolean;

  @Bool()
  RUN_MIGRATIONS?: boolean;

  @Integer(0, 600_000)
  SHUTDOWN_GRACE_MS?: number;

  @Integer(1_000, 600_000)
  REQUEST_TIMEOUT_MS?: number;

  @Integer(0, 600_000)
  SHUTDOWN_DELAY_MS?: number;

  /** `false`, a hop count or a list of proxy addresses; read by `trustProxySetting` (load-config.ts). */
  @Text()
  TRUST_PROXY?: string;

  @OneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  // --- Gateway Management console ---

  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(10_080)
  CONSOLE_SESSION_TTL_MINUTES?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(10) @Max(3_600)
  PORTAL_LINK_TTL_SECONDS?: number;

  @IsOptional() @Transform(emptyToUndefined) @Matches(/^https?:\/\/[^/?#\s]+$/, { message: 'must be an http(s) origin without a path, e.g. https://gateway.example.com' })
  PUBLIC_URL?: string;

  @IsOptional() @Transform(emptyToUndefined) @Matches(/^(https?:\/\/[^\s;,'"]+)( https?:\/\/[^\s;,'"]+)*$/, { message: 'must be space-separated http(s) origins' })
  CONSOLE_FRAME_ANCESTORS?: string;

  /** Comma- or space-separated http(s) origins; read by `originList` (load-config.ts). */
  @Text()
  MCP_ALLOWED_ORIGINS?: string;

  // --- The tenant portal's branding: checked by portalBranding (portal-config.ts) ---

  @Text()
  PORTAL_PLATFORM_NAME?: string;

  @Text()
  PORTAL_RETURN_URL?: string;

  @Text()
  PORTAL_LOGO_URL?: string;

  @Text()
  PORTAL_PRIMARY_COLOR?: string;

  // --- OpenTelemetry tracing: the standard variables, read by tracingSettings (tracing-config.ts) ---

  @Bool()
  OTEL_SDK_DISABLED?: boolean;

  @Text()
  OTEL_TRACES_EXPORTER?: string;

  @Text()
  OTEL_EXPORTER_OTLP_PROTOCOL?: string;

  @Text()
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?: string;

  @IsOptional() @Transform(emptyToUndefined) @Matches(/^https?:\/\/[^\s]+$/, { message: 'must be an http:// or https:// URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  @IsOptional() @Transform(emptyToUndefined) @Matches(/^https?:\/\/[^\s]+$/, { message: 'must be an http:// or https:// URL' })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  @Text()
  OTEL_SERVICE_NAME?: string;

  @Text()
  OTEL_RESOURCE_ATTRIBUTES?: string;

  @Text()
  OTEL_TRACES_SAMPLER?: string;

  @Text()
  OTEL_TRACES_SAMPLER_ARG?: string;

  @Text()
  OTEL_PROPAGATORS?: string;

  @Integer(1, 600_000)
  OTEL_BSP_SCHEDULE_DELAY?: number;

  @Integer(1, 600_000)
  OTEL_BSP_EXPORT_TIMEOUT?: number;

  @Integer(1, 1_000_000)
  OTEL_BSP_MAX_QUEUE_SIZE?: number;

  @Integer(1, 1_000_000)
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE?: number;

  @Bool()
  TRACE_PROBES?: boolean;
}

/** Variables whose values are never repeated in a message (secrets, URLs that may carry a password). */
export const SECRET_VARIABLES = new Set([
  'JWT_SECRET',
  'ADMIN_API_KEY',
  'ENCRYPTION_KEY',
  'DATABASE_URL',
  'REDIS_URL',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
]);
