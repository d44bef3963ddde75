import { createHmac } from 'node:crypto';
import { Type } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { ActionsModule } from '../../src/actions/actions.module';
import { ActionsService } from '../../src/actions/actions.service';
import { ActionDto } from '../../src/actions/dto/action.response';
import { AdminModule } from '../../src/admin/admin.module';
import { AdminService } from '../../src/admin/admin.service';
import { AuthModule } from '../../src/auth/auth.module';
import { CommonModule } from '../../src/common/common.module';
import { TenantId } from '../../src/common/tenant-id';
import { AppConfig } from '../../src/config/app-config';
import { ConfigModule } from '../../src/config/config.module';
import { DatabaseModule } from '../../src/database/database.module';
import { ExecutionsModule } from '../../src/executions/executions.module';
import { ExecutionRollupsRepository } from '../../src/executions/execution-rollups.repository';
import { ExecutionsService } from '../../src/executions/executions.service';
import { TenancyModule } from '../../src/tenancy/tenancy.module';
import { TenancyService } from '../../src/tenancy/tenancy.service';
import { WebhooksModule } from '../../src/webhooks/webhooks.module';
import { ReceivedCall, Receiver } from './receiver';
import { testConfig } from './test-app';

/**
 * The medium tier: the service modules (no HTTP) on the worker's real database, with real repositories, so a
 * service or repository method can be called directly and the stored rows read back.
 */
export interface Services {
  moduleRef: TestingModule;
  config: AppConfig;
  dataSource: DataSource;
  /** Any provider of the service modules, exported or not (repositories included). */
  get<T>(type: Type<T>): T;
  close(): Promise<void>;
}

/** The gateway's feature service modules (each holds providers only: no routes). */
export const FEATURE_SERVICE_MODULES = [TenancyModule, AuthModule, WebhooksModule, ActionsModule, ExecutionsModule, AdminModule];

/** `modules`: service modules a suite needs beyond FEATURE_SERVICE_MODULES (ToolsModule, say). */
export async function startServices(env: Record<string, string> = {}, modules: Array<Type<unknown>> = []): Promise<Services> {
  const config = await testConfig(env);
  const moduleRef = await Test.createTestingModule({
    imports: [ConfigModule.forRoot(config), CommonModule, DatabaseModule, ...FEATURE_SERVICE_MODULES, ...modules],
  }).compile();
  await moduleRef.init();
  return {
    moduleRef,
    config,
    dataSource: moduleRef.get<DataSource>(getDataSourceToken()),
    get: <T>(type: Type<T>) => moduleRef.get(type, { strict: false }),
    close: () => moduleRef.close(),
  };
}

/**
 * Registers the hooks of a medium suite in the calling `describe`: the services and two receivers once, a fresh
 * two-tenant world before each test. Read the fields inside tests (they are set by then).
 */
export function twoTenantSuite(
  env: Record<string, string> = {},
  modules: Array<Type<unknown>> = [],
): { services: Services; receivers: { a: Receiver; b: Receiver }; world: TwoTenants } {
  const suite = {} as { services: Services; receivers: { a: Receiver; b: Receiver }; world: TwoTenants };
  beforeAll(async () => {
    suite.services = await startServices(env, modules);
    suite.receivers = { a: await Receiver.start(), b: await Receiver.start() };
  });
  beforeEach(async () => {
    suite.world = await TwoTenants.seed(suite.services, suite.receivers);
  });
  afterAll(async () => {
    await suite.services?.close();
    await suite.receivers?.a.stop();
    await suite.receivers?.b.stop();
  });
  return suite;
}

/** One tenant of a two-tenant world, with what was made for it (plaintext secrets included). */
export interface SeededTenant {
  id: TenantId;
  name: string;
  apiTokens: Array<{ id: string; token: string }>;
  hmacKeys: Array<{ id: string; key: string }>;
  actions: Record<string, ActionDto>;
  receiver: Receiver;
}

/** Everything stored for one tenant, row by row, in every table. */
export type StoredState = Record<
  | 'tenants'
  | 'api_tokens'
  | 'hmac_keys'
  | 'actions'
  | 'executions'
  | 'execution_payloads'
  | 'execution_stats_hourly'
  | 'execution_stats_daily'
  | 'execution_replays'
  | 'idempotency_keys',
  unknown[]
>;

/** Marks every value of tenant B that A could see by mistake (descriptions, webhook paths). */
export const B_MARK = 'B-ONLY';

/**
 * Tenant A and tenant B, with rows of the same names: both have an action `shared`, B also has `only_b` and an
 * execution of its `shared`. Every method is called as A; `byA` then checks that nothing of B's was changed
 * (B's rows in every table, compared with how they were after seeding) or read (no id, secret or marked value of
 * B's in what the call returned or threw).
 */
export class TwoTenants {
  private bBefore!: StoredState;
  private bSecrets: string[] = [];

  private constructor(
    private readonly services: Services,
    readonly a: SeededTenant,
    readonly b: SeededTenant,
  ) {}

  static async seed(services: Services, receivers: { a: Receiver; b: Receiver }): Promise<TwoTenants> {
    const admin = services.get(AdminService);
    const tenancy = services.get(TenancyService);
    const actions = services.get(ActionsService);
    const make = async (label: 'A' | 'B', receiver: Receiver): Promise<SeededTenant> => {
      const name = `tenant-${label}-${crypto.randomUUID()}`;
      const made = await admin.bootstrap(name);
      const id = await tenancy.requireId(made.tenant.id);
      return {
        id,
        name,
        apiTokens: [{ id: made.api_token.id, token: made.api_token.token! }],
        hmacKeys: [{ id: made.hmac_key.id, key: made.hmac_key.key! }],
        actions: {},
        receiver,
      };
    };
    const a = await make('A', receivers.a);
    const b = await make('B', receivers.b);
    const register = async (tenant: SeededTenant, name: string, description: string, path: string) => {
      tenant.actions[name] = await actions.create(tenant.id, {
        name,
        description,
        webhook_url: tenant.receiver.url(path),
        json_schema: { type: 'object', properties: { city: { type: 'string' } } },
      });
    };
    await register(a, 'shared', 'A shared', '/a-hook');
    await register(b, 'shared', `${B_MARK} shared`, `/${B_MARK}-hook`);
    await register(b, 'only_b', `${B_MARK} only`, `/${B_MARK}-only`);
    const second = await admin.createApiToken(b.id, `${B_MARK} second token`);
    b.apiTokens.push({ id: second.id, token: second.token! });
    const secondKey = await admin.createHmacKey(b.id);
    b.hmacKeys.push({ id: secondKey.id, key: secondKey.key! });
    await services.get(ExecutionsService).execute(b.id, 'shared', { city: B_MARK });

    const world = new TwoTenants(services, a, b);
    await world.rememberB();
    receivers.a.calls.length = 0;
    receivers.b.calls.length = 0;
    return world;
  }

  /**
   * Takes B's rows as they are now as what `byA` must leave unchanged and keep out of A's results, ids of its
   * executions and replays included: for a test that gives B more (a revoked key, a replay) before calling as A.
   */
  async rememberB(): Promise<void> {
    const b = this.b;
    this.bBefore = await this.stored(b.id);
    this.bSecrets = [
      B_MARK,
      b.id,
      b.name,
      ...b.apiTokens.flatMap((token) => [token.id, token.token]),
      ...b.hmacKeys.flatMap((key) => [key.id, key.key]),
      ...Object.values(b.actions).map((action) => action.id),
      ...[...this.bBefore.executions, ...this.bBefore.execution_replays].map((row) => (row as { id: string }).id),
    ];
  }

  /** Every row stored for `tenantId`, read straight from the database. */
  async stored(tenantId: string): Promise<StoredState> {
    // The rollups' counts wait in memory for up to a second (RollupBuffer): what is stored includes them.
    await this.services.get(ExecutionRollupsRepository).flush();
    const rows = (sql: string) => this.services.dataSource.query(sql, [tenantId]);
    return {
      tenants: await rows('SELECT * FROM tenants WHERE id = $1'),
      api_tokens: await rows('SELECT * FROM api_tokens WHERE tenant_id = $1 ORDER BY id'),
      hmac_keys: await rows('SELECT * FROM hmac_keys WHERE tenant_id = $1 ORDER BY id'),
      actions: await rows('SELECT * FROM actions WHERE tenant_id = $1 ORDER BY id'),
      executions: await rows('SELECT * FROM executions WHERE tenant_id = $1 ORDER BY id'),
      execution_payloads: await rows('SELECT * FROM execution_payloads WHERE tenant_id = $1 ORDER BY execution_id'),
      execution_stats_hourly: await rows('SELECT * FROM execution_stats_hourly WHERE tenant_id = $1 ORDER BY action_id, period_start'),
      execution_stats_daily: await rows('SELECT * FROM execution_stats_daily WHERE tenant_id = $1 ORDER BY action_id, period_start'),
      execution_replays: await rows('SELECT * FROM execution_replays WHERE tenant_id = $1 ORDER BY id'),
      idempotency_keys: await rows('SELECT * FROM idempotency_keys WHERE tenant_id = $1 ORDER BY idempotency_key'),
    };
  }

  /** Runs `call` as tenant A, then fails if B's stored state changed or B's data shows in the result or error. */
  async byA<T>(call: () => Promise<T>): Promise<T> {
    let result: T | undefined;
    let error: unknown;
    let failed = false;
    try {
      result = await call();
    } catch (caught) {
      error = caught;
      failed = true;
    }
    await this.expectBUntouched();
    this.expectNothingOfB(failed ? String(error) : result);
    if (failed) throw error;
    return result as T;
  }

  async expectBUntouched(): Promise<void> {
    expect(await this.stored(this.b.id)).toEqual(this.bBefore);
    expect(this.b.receiver.calls).toEqual([]);
  }

  expectNothingOfB(value: unknown): void {
    const text = JSON.stringify(value ?? null);
    for (const secret of this.bSecrets) expect(text).not.toContain(secret);
  }
}

/** Whether `call` is signed, in the body and in the Standard Webhooks headers, with `key`. */
export function signedWith(call: ReceivedCall, key: string): { body: boolean; headers: boolean } {
  const parsed = JSON.parse(call.body) as { signature?: string };
  const signedPart = call.body.slice(0, call.body.lastIndexOf(',"signature"')) + '}';
  const body = parsed.signature === createHmac('sha256', key).update(signedPart).digest('hex');
  let headers = true;
  try {
    new Webhook(key).verify(call.body, call.headers as Record<string, string>);
  } catch {
    headers = false;
  }
  return { body, headers };
}
