import { ApiTokensService } from '../src/auth/api-tokens.service';
import { ActionsService } from '../src/actions/actions.service';
import { InvalidRequestError } from '../src/common/common.errors';
import { TenantId } from '../src/common/tenant-id';
import { TenancyService } from '../src/tenancy/tenancy.service';
import { HmacKeysService } from '../src/webhooks/hmac-keys.service';
import { actionBody, createTenant, gateway, TestTenant } from './support/factories';
import { Receiver } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Issue 16, "rules where the data lives": each exported service keeps its own rules and keeps what the gateway
 * serves from memory exact, whoever calls it (the management API, or an admin backend calling it directly).
 */
describe('the exported services own their rules', () => {
  let service: TestApp;
  let receiver: Receiver;
  let tenant: TestTenant;
  /** The tenant's id as the admin path checks it (TenancyService.requireId). */
  let tenantId: TenantId;

  beforeAll(async () => {
    service = await startTestApp();
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await service?.close();
    await receiver?.stop();
  });
  beforeEach(async () => {
    tenant = await createTenant(service);
    tenantId = await service.app.get(TenancyService).requireId(tenant.tenantId);
  });

  const list = () => gateway(service, 'GET', '/actions', { token: tenant.jwt });

  it('TenancyService.update: a tenant disabled through it is refused at the next request, enabled again works at once', async () => {
    const tenancy = service.app.get(TenancyService);
    expect((await list()).status).toBe(200);
    await tenancy.update(tenant.tenantId, { status: 'disabled' });
    expect(await list()).toMatchObject({ status: 401, body: { error: 'Invalid token' } });
    await tenancy.update(tenant.tenantId, { status: 'active' });
    expect((await list()).status).toBe(200);
  });

  it('ApiTokensService.create refuses an expiry that is not a date-time in the future', async () => {
    const tokens = service.app.get(ApiTokensService);
    const id = tenantId;
    await expect(tokens.create(id, 'past', new Date(Date.now() - 1_000))).rejects.toThrow(new InvalidRequestError('expires_at: must be in the future'));
    await expect(tokens.create(id, 'past', '2020-01-01T00:00:00Z')).rejects.toThrow(new InvalidRequestError('expires_at: must be in the future'));
    await expect(tokens.create(id, 'garbage', 'tomorrow')).rejects.toThrow(new InvalidRequestError('expires_at: must be an ISO 8601 date-time'));
    expect((await tokens.list(id)).items.map((token) => token.name)).toEqual(['test']);
    const future = new Date(Date.now() + 86_400_000);
    expect((await tokens.create(id, 'future', future)).expires_at).toBe(future.toISOString());
  });

  it('ApiTokensService.revoke: the bearer tokens minted from it are refused at the next request', async () => {
    expect((await list()).status).toBe(200);
    await service.app.get(ApiTokensService).revoke(tenantId, tenant.apiTokenId);
    expect(await list()).toMatchObject({ status: 401, body: { error: 'Invalid token' } });
  });

  it('HmacKeysService.revoke and ActionsService.delete take effect at the next execution', async () => {
    const name = (await gateway(service, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).body.action.name;
    const execute = () => gateway(service, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, body: { parameters: { city: 'Oslo' } } });
    expect((await execute()).status).toBe(200);

    const keys = service.app.get(HmacKeysService);
    const [key] = (await keys.list(tenantId)).items;
    await keys.revoke(tenantId, key.id);
    expect(await execute()).toMatchObject({ status: 409, body: { error: 'no active HMAC key for this tenant' } });

    await service.app.get(ActionsService).delete(tenantId, name);
    expect(await execute()).toMatchObject({ status: 404, body: { error: 'Action not found' } });
  });
});
