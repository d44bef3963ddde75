import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  const text = String(value).toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(text)) return true;
  if (['false', '0', 'no', 'off'].includes(text)) return false;
  return value;
};
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/** The raw environment, as the operator wrote it. Validated once at boot; nothing else reads process.env. */
export class EnvironmentVariables {
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  PORT?: number;

  @IsOptional() @Transform(emptyToUndefined) @IsString()
  HOST?: string;

  @IsOptional() @IsString()
  NODE_ENV?: string;

  @IsOptional() @Transform(emptyToUndefined) @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(100)
  DATABASE_POOL_SIZE?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(100) @Max(600_000)
  DATABASE_STATEMENT_TIMEOUT_MS?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(60_000)
  EXECUTION_CACHE_TTL_MS?: number;

  @IsOptional() @Transform(emptyToUndefined) @IsString()
  DATA_DIR?: string;

  @IsOptional() @Transform(emptyToUndefined) @Matches(/^rediss?:\/\//, { message: 'must be a redis:// URL' })
  REDIS_URL?: string;

  @IsOptional() @Transform(emptyToUndefined) @IsString()
  JWT_SECRET?: string;

  @IsOptional() @Transform(emptyToUndefined) @IsIn(['HS256', 'HS384', 'HS512'])
  JWT_ALGORITHM?: 'HS256' | 'HS384' | 'HS512';

  @IsOptional() @Transform(emptyToUndefined) @IsString()
  JWT_ISSUER?: string;

  @IsOptional() @Transform(emptyToUndefined) @IsString()
  JWT_AUDIENCE?: string;

  @IsOptional() @Transform(emptyToUndefined) @IsString()
  ADMIN_API_KEY?: string;

  @IsOptional() @Transform(emptyToUndefined) @IsString()
  ENCRYPTION_KEY?: string;

  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(300_000)
  WEBHOOK_TIMEOUT_MS?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(10)
  WEBHOOK_MAX_RETRIES?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(3650)
  EXECUTION_RETENTION_DAYS?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(1)
  RATE_LIMIT_PER_HOUR?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(1)
  TOKEN_EXCHANGE_RATE_LIMIT_PER_MINUTE?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(1)
  ACTIONS_PER_TENANT?: number;

  @IsOptional() @Transform(toBool) @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_NETWORKS?: boolean;

  @IsOptional() @Transform(toBool) @IsBoolean()
  WEBHOOK_REQUIRE_HTTPS?: boolean;

  @IsOptional() @Transform(toBool) @IsBoolean()
  RUN_MIGRATIONS?: boolean;

  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(600_000)
  SHUTDOWN_GRACE_MS?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(600_000)
  SHUTDOWN_DELAY_MS?: number;

  @IsOptional() @Transform(toBool) @IsBoolean()
  TRUST_PROXY?: boolean;

  @IsOptional() @Transform(emptyToUndefined) @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  // --- Gateway Management console (issue 13) ---

  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(10_080)
  CONSOLE_SESSION_TTL_MINUTES?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(10) @Max(3_600)
  PORTAL_LINK_TTL_SECONDS?: number;

  @IsOptional() @Transform(emptyToUndefined) @Matches(/^https?:\/\/[^/?#\s]+$/, { message: 'must be an http(s) origin without a path, e.g. https://gateway.example.com' })
  PUBLIC_URL?: string;

  @IsOptional() @Transform(emptyToUndefined) @Matches(/^(https?:\/\/[^\s;,'"]+)( https?:\/\/[^\s;,'"]+)*$/, { message: 'must be space-separated http(s) origins' })
  CONSOLE_FRAME_ANCESTORS?: string;
}
