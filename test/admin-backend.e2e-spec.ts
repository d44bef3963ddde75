import { Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { INestApplicationContext } from '@nestjs/common';
import { ActionsModule } from '../src/actions/actions.module';
import { ActionsService } from '../src/actions/actions.service';
import { AdminModule } from '../src/admin/admin.module';
import { AdminService } from '../src/admin/admin.service';
import { CommonModule } from '../src/common/common.module';
import { asTenantId } from '../src/common/tenant-id';
import { ConfigModule } from '../src/config/config.module';
import { DatabaseModule } from '../src/database/database.module';
import { TenancyModule } from '../src/tenancy/tenancy.module';
import { TenancyService } from '../src/tenancy/tenancy.service';
import { gateway } from './support/factories';
import { Receiver } from './support/receiver';
import { startTestApp, testConfig, TestApp } from './support/test-app';

/**
 * The admin panel's backend imports the gateway's Nest modules into an application of its own and works through
 * their exported services, next to the gateway serving the same database.
 */
describe('modules composed into another Nest application (the admin panel backend)', () => {
  let backend: INestApplicationContext;
  let gatewayApp: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    gatewayApp = await startTestApp();
    receiver = await Receiver.start();
    const config = testConfig({
      JWT_SECRET: gatewayApp.config.jwt.secret,
      ENCRYPTION_KEY: gatewayApp.config.encryptionKey.toString('base64'),
      ADMIN_API_KEY: gatewayApp.config.adminApiKey,
    });

    @Module({ imports: [ConfigModule.forRoot(await config), CommonModule, DatabaseModule, TenancyModule, AdminModule, ActionsModule] })
    class AdminPanelBackendModule {}

    backend = await (await Test.createTestingModule({ imports: [AdminPanelBackendModule] }).compile()).init();
  });
  afterAll(async () => {
    await backend?.close();
    await gatewayApp?.close();
    await receiver?.stop();
  });

  it('manages a tenant through the exported services, and the gateway honours what it did', async () => {
    const admin = backend.get(AdminService);
    const tenancy = backend.get(TenancyService);
    const actions = backend.get(ActionsService);

    const { tenant, api_token: apiToken, hmac_key: hmacKey } = await admin.bootstrap('panel-made');
    expect(tenant.status).toBe('active');
    expect(hmacKey.primary).toBe(true);
    expect((await tenancy.get(tenant.id)).name).toBe('panel-made');

    const exchanged = await gateway(gatewayApp, 'POST', '/token/exchange', { body: { api_token: apiToken.token } });
    expect(exchanged.status).toBe(200);
    const jwt = exchanged.body.jwt_token;

    const created = await actions.create(asTenantId(tenant.id), {
      name: 'from_the_panel',
      description: 'registered by the admin backend',
      webhook_url: receiver.url(),
      json_schema: { type: 'object' },
    });
    const seen = await gateway(gatewayApp, 'GET', '/actions/from_the_panel', { token: jwt });
    expect(seen.status).toBe(200);
    expect(seen.body.action).toEqual(created);

    const renamed = await admin.updateTenant(tenant.id, { name: 'renamed', status: 'disabled' });
    expect(renamed).toMatchObject({ name: 'renamed', status: 'disabled' });
    expect((await gateway(gatewayApp, 'POST', '/token/exchange', { body: { api_token: apiToken.token } })).status).toBe(401);
    expect((await admin.listTenants()).find((entry) => entry.id === tenant.id)?.status).toBe('disabled');
  });
});
