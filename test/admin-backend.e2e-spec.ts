import { Body, Controller, Get, Module, Param, Post } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { ActionsService } from '../src/actions/actions.service';
import { ActionDto } from '../src/actions/dto/action.response';
import { AdminService, BootstrapResult } from '../src/admin/admin.service';
import { TokenExchangeService } from '../src/auth/token-exchange.service';
import { CommonModule } from '../src/common/common.module';
import { ConfigModule } from '../src/config/config.module';
import { DatabaseModule } from '../src/database/database.module';
import type { DeepReadonly } from '../src/database/deep-readonly';
import { ExecutionsService } from '../src/executions/executions.service';
import { HealthModule } from '../src/health/health.module';
import { MetricsModule } from '../src/metrics/metrics.module';
import { RateLimitModule } from '../src/rate-limit/rate-limit.module';
import { TenancyService } from '../src/tenancy/tenancy.service';
import { gateway } from './support/factories';
import { call } from './support/http';
import { FEATURE_SERVICE_MODULES } from './support/medium';
import { Receiver } from './support/receiver';
import { startTestApp, testConfig, TestApp } from './support/test-app';

/** The admin panel backend's own routes, built on the gateway's exported services. */
@Controller('panel')
class PanelController {
  constructor(
    private readonly admin: AdminService,
    private readonly tenancy: TenancyService,
    private readonly actions: ActionsService,
    private readonly tokenExchange: TokenExchangeService,
  ) {}

  @Post('tenants')
  bootstrap(@Body() body: { name: string }): Promise<BootstrapResult> {
    return this.admin.bootstrap(body.name);
  }

  @Post('tenants/:id/disable')
  disable(@Param('id') id: string) {
    return this.admin.updateTenant(id, { status: 'disabled' });
  }

  @Post('exchange')
  exchange(@Body() body: { api_token: string }) {
    return this.tokenExchange.exchange(body.api_token);
  }

  @Post('tenants/:id/actions')
  async register(@Param('id') id: string, @Body() body: { name: string; description: string; webhook_url: string; json_schema: Record<string, unknown> }): Promise<ActionDto> {
    return this.actions.create(await this.tenancy.requireId(id), body);
  }

  @Get('tenants/:id/actions')
  async list(@Param('id') id: string): Promise<DeepReadonly<ActionDto[]>> {
    return this.actions.list(await this.tenancy.requireId(id));
  }
}

/**
 * The admin panel's backend imports the gateway's service modules into an HTTP application of its own and works
 * through their exported services, next to the gateway serving the same database. It publishes its own routes
 * and none of the gateway's.
 */
describe('service modules composed into another Nest HTTP application (the admin panel backend)', () => {
  let backend: NestFastifyApplication;
  let backendUrl: string;
  let gatewayApp: TestApp;
  let receiver: Receiver;
  const panel = (method: string, path: string, body?: unknown) => call(backendUrl, method, `/panel${path}`, { body });

  beforeAll(async () => {
    gatewayApp = await startTestApp();
    receiver = await Receiver.start();
    const config = await testConfig({
      JWT_SECRET: gatewayApp.config.jwt.secret,
      ENCRYPTION_KEY: gatewayApp.config.encryptionKey.toString('base64'),
      ADMIN_API_KEY: gatewayApp.config.adminApiKey,
    });

    // Every service module the gateway has, so that none of them can slip a controller in unnoticed.
    @Module({
      imports: [
        ConfigModule.forRoot(config),
        CommonModule,
        DatabaseModule,
        ...FEATURE_SERVICE_MODULES,
        RateLimitModule,
        HealthModule,
        MetricsModule,
      ],
      controllers: [PanelController],
    })
    class AdminPanelBackendModule {}

    const moduleRef = await Test.createTestingModule({ imports: [AdminPanelBackendModule] }).compile();
    backend = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
    await backend.listen({ port: 0, host: '127.0.0.1' });
    backendUrl = `http://127.0.0.1:${(backend.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await backend?.close();
    await gatewayApp?.close();
    await receiver?.stop();
  });

  it('publishes none of the gateway routes: its HTTP server answers 404 on every one of them', async () => {
    const gatewayRoutes: Array<[string, string]> = [
      ['POST', '/api/v1/gateway/token/exchange'],
      ['GET', '/api/v1/gateway/actions'],
      ['POST', '/api/v1/gateway/actions'],
      ['GET', '/api/v1/gateway/actions/some_action'],
      ['PUT', '/api/v1/gateway/actions/some_action'],
      ['DELETE', '/api/v1/gateway/actions/some_action'],
      ['POST', '/api/v1/gateway/actions/some_action/execute'],
      ['GET', '/api/v1/gateway/actions/some_action/executions'],
      ['GET', '/api/v1/admin/tenants'],
      ['POST', '/api/v1/admin/tenants'],
      ['GET', `/api/v1/admin/tenants/${crypto.randomUUID()}/api-tokens`],
      ['GET', `/api/v1/admin/tenants/${crypto.randomUUID()}/hmac-keys`],
      ['GET', '/healthz'],
      ['GET', '/readyz'],
      ['GET', '/metrics'],
    ];
    for (const [method, path] of gatewayRoutes) {
      const response = await call(backendUrl, method, path, { token: gatewayApp.config.adminApiKey, body: method === 'GET' ? undefined : {} });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
    }
    // The same paths are routes of the gateway itself (not a typo in the list above).
    expect((await call(gatewayApp.baseUrl, 'GET', '/api/v1/admin/tenants', { token: gatewayApp.config.adminApiKey })).status).toBe(200);
    expect((await call(gatewayApp.baseUrl, 'GET', '/healthz')).status).toBe(200);
  });

  it('manages a tenant over its own routes through the exported services, and the gateway honours what it did', async () => {
    const bootstrapped = await panel('POST', '/tenants', { name: 'panel-made' });
    expect(bootstrapped.status).toBe(201);
    const { tenant, api_token: apiToken, hmac_key: hmacKey } = bootstrapped.body as BootstrapResult;
    expect(tenant).toMatchObject({ name: 'panel-made', status: 'active' });
    expect(hmacKey.primary).toBe(true);
    expect(backend.get(ExecutionsService)).toBeInstanceOf(ExecutionsService);

    // The backend's token exchange (AuthModule's service) mints a bearer token the gateway accepts.
    const exchanged = await panel('POST', '/exchange', { api_token: apiToken.token });
    expect(exchanged.status).toBe(201);
    const jwt = exchanged.body.jwt_token as string;

    const created = await panel('POST', `/tenants/${tenant.id}/actions`, {
      name: 'from_the_panel',
      description: 'registered by the admin backend',
      webhook_url: receiver.url(),
      json_schema: { type: 'object' },
    });
    expect(created.status).toBe(201);
    expect(receiver.calls).toHaveLength(1); // the registration test went out from the backend
    const seen = await gateway(gatewayApp, 'GET', '/actions/from_the_panel', { token: jwt });
    expect(seen.status).toBe(200);
    expect(seen.body.action).toEqual(created.body);
    expect((await panel('GET', `/tenants/${tenant.id}/actions`)).body).toEqual([created.body]);

    const disabled = await panel('POST', `/tenants/${tenant.id}/disable`);
    expect(disabled.body).toMatchObject({ name: 'panel-made', status: 'disabled' });
    expect((await gateway(gatewayApp, 'POST', '/token/exchange', { body: { api_token: apiToken.token } })).status).toBe(401);
    expect((await gatewayApp.app.get(TenancyService).get(tenant.id)).status).toBe('disabled');
  });
});
