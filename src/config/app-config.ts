import type { PortalBranding } from './portal-config';
import type { TracingSettings } from './tracing-config';

/**
 * Whose word to take for the client's address (X-Forwarded-For): nobody (`false`), the proxies that many hops
 * back (a number), or the listed proxy addresses and CIDR ranges (`loopback`, `linklocal`, `uniquelocal` too).
 */
export type TrustProxy = false | number | string[];

/** The service's typed configuration. Built once by `loadConfig`; everything else injects this. */
export class AppConfig {
  readonly port: number;
  readonly host: string;
  /** The longest a client may take to send a whole request, headers and body; then 408 and the connection closes. */
  readonly requestTimeoutMs: number;
  readonly production: boolean;
  /** Unset: the embedded PostgreSQL under `dataDir`. */
  readonly databaseUrl?: string;
  /** Connections to DATABASE_URL; the embedded database always gets one (see data-source-options.ts). */
  readonly databasePoolSize: number;
  /** The longest a query may take, on the server and as the client waits for it, before the request is a 503. */
  readonly databaseStatementTimeoutMs: number;
  /**
   * What the read model holds in memory in all (tenants' statuses, tokens' standings, tenants' actions and keys),
   * in MB of their measured heap cost; the least recently used are read again when needed (see ReadModel).
   */
  readonly readModelCacheMb: number;
  readonly dataDir: string;
  /**
   * The loopback port the embedded database listens on for other processes (psql, the command line); 0, the
   * default, is a free one each start. Unused with DATABASE_URL.
   */
  readonly embeddedDatabasePort: number;
  readonly redisUrl?: string;
  readonly jwt: {
    readonly secret: string;
    readonly algorithm: 'HS256' | 'HS384' | 'HS512';
    readonly issuer: string;
    readonly audience: string;
    readonly lifetimeSeconds: number;
  };
  readonly adminApiKey: string;
  /**
   * Outside production, the file the ADMIN_API_KEY was generated into (DATA_DIR/secrets.json), which the start-up
   * line and the console's sign-in page point to; unset in production and when the environment sets the key.
   */
  readonly adminApiKeyFile?: string;
  /** 32 bytes: the AES-256-GCM key that HMAC keys are encrypted under. */
  readonly encryptionKey: Buffer;
  readonly webhook: {
    readonly timeoutMs: number;
    /** Further attempts after a connection failure or a 429/5xx answer, inside the same timeout. */
    readonly maxRetries: number;
    /**
     * Each action's circuit breaker (circuit-breakers.ts): opened by this many consecutive failed executions (0: no
     * breaker), it fails executions at once for `breakerCooldownMs`, then lets one probe through.
     */
    readonly breakerFailures: number;
    readonly breakerCooldownMs: number;
    readonly allowPrivateNetworks: boolean;
    readonly requireHttps: boolean;
  };
  readonly rateLimit: {
    /** Each tenant's requests per hour: its bearer calls and its portal sessions' management calls together. */
    readonly perHour: number;
    /** Token exchanges per minute per client address; portal-link redemptions have a budget of their own, as large. */
    readonly tokenExchangePerMinute: number;
    /** Management calls per minute made with the ADMIN_API_KEY or an operator's console session, all together. */
    readonly operatorPerMinute: number;
    /** Wrong admin keys (sign-in, or a management call's bearer) per minute per client address; past it, 429. */
    readonly adminKeyFailuresPerMinute: number;
  };
  readonly actionsPerTenant: number;
  /** Executions accepted with `Prefer: respond-async`, run in the background from a job queue (AsyncExecutions). */
  readonly asyncExecutions: {
    /** How many of a tenant's may be unfinished (pending or running) at once; past it, 429. */
    readonly perTenant: number;
    /**
     * How many this replica runs at once; 0: it accepts them but runs none and leaves the queue's upkeep to others
     * (a replica that only answers requests), so at least one replica must have more.
     */
    readonly concurrency: number;
    /**
     * How long a replica holds a run before the queue gives it to another: a replica that died mid-call (SIGKILL)
     * loses it after this. Longer than WEBHOOK_TIMEOUT_MS, so a live run is never given away.
     */
    readonly leaseMs: number;
  };
  /**
   * Each tenant's time in the schema worker per minute (per process): once spent, its checks in the worker are
   * refused with 429 until enough of it is a minute old (SchemaSandbox).
   */
  readonly schemaWorkerMsPerMinute: number;
  readonly executionRetentionDays: number;
  /** How long an execution's payload (what was sent, what came back) is kept; at most executionRetentionDays. */
  readonly executionPayloadRetentionDays: number;
  /**
   * Words that mark a receiver's answer header as a credential (lowercase): a header whose name contains one is
   * stored as `[redacted]` (EXECUTION_PAYLOAD_MASKED_HEADERS); empty: only the standard credential headers are.
   */
  readonly executionPayloadMaskedHeaderWords: readonly string[];
  readonly runMigrations: boolean;
  readonly shutdown: {
    /** After SIGTERM, how long /readyz answers 503 while the service still serves, so load balancers move away. */
    readonly delayMs: number;
    /** The most the whole shutdown may take (drain included) before the process exits anyway. */
    readonly graceMs: number;
  };
  readonly trustProxy: TrustProxy;
  /** OpenTelemetry tracing (OTEL_* variables): where spans go, if anywhere, and which are sampled. */
  readonly tracing: TracingSettings;
  readonly logLevel: string;
  /**
   * Origins besides the service's own (PUBLIC_URL, the connection's) whose pages may call the MCP endpoint
   * (MCP_ALLOWED_ORIGINS): a request with any other `Origin` is 403; one without `Origin` is served.
   */
  readonly mcpAllowedOrigins: readonly string[];
  /** The Gateway Management console (served under /console) and its sessions. */
  readonly console: {
    readonly sessionTtlMs: number;
    /** How long a portal link may wait before it is redeemed (it can be redeemed once). */
    readonly portalLinkTtlMs: number;
    /** The origin browsers reach the service at, for portal links; unset: the origin of the request asking for one. */
    readonly publicUrl?: string;
    /** Origins allowed to show the console in a frame (CSP frame-ancestors); empty: none. */
    readonly frameAncestors: string[];
    /** The platform's name, return link, logo and colour in the tenant portal (PORTAL_* variables). */
    readonly portal: PortalBranding;
  };

  /** What is weak in the configuration but accepted, because this is not production: logged at start. */
  readonly warnings: readonly string[];

  constructor(values: AppConfig) {
    Object.assign(this, values);
  }
}
