import { createHmac } from 'node:crypto';
import { Clock } from '../src/common/clock';
import { actionBody, admin, createTenant, gateway } from './support/factories';
import { Receiver } from './support/receiver';
import { listedTenantsAmong } from './support/tenant-list';
import { startTestApp, TestApp } from './support/test-app';

/** A clock that stands still: every record made in this app has the same created_at, to the millisecond. */
class StoppedClock extends Clock {
  private readonly at = new Date();
  override now(): Date {
    return new Date(this.at);
  }
}

/**
 * "Newest" and "in order" hold for records made within one millisecond too: ids are time-ordered (UUID v7,
 * monotonic within a process), and break the tie of equal created_at the way the records were made.
 */
describe('records made in the same millisecond', () => {
  let testApp: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await Receiver.start();
    testApp = await startTestApp({ override: (builder) => builder.overrideProvider(Clock).useValue(new StoppedClock()) });
  });
  afterAll(async () => {
    await testApp?.close();
    await receiver?.stop();
  });

  it('makes the newest HMAC key primary and signs with it, and lists keys newest first', async () => {
    const tenant = await createTenant(testApp, { hmacKey: false });
    const created: Array<{ id: string; key: string; primary: boolean; created_at: string }> = [];
    for (let i = 0; i < 5; i++) {
      created.push((await admin(testApp, 'POST', `/tenants/${tenant.tenantId}/hmac-keys`)).body.hmac_key);
      // Each key is primary as it is created: it is the newest.
      expect(created[i].primary).toBe(true);
    }
    expect(new Set(created.map((key) => key.created_at)).size).toBe(1);
    const listed = (await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/hmac-keys`)).body.hmac_keys;
    expect(listed.map((key: { id: string; primary: boolean }) => [key.id, key.primary])).toEqual(
      created.map((key, index) => [key.id, index === created.length - 1]).reverse(),
    );

    const action = actionBody(receiver.url());
    expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: action })).status).toBe(201);
    const mark = receiver.calls.length;
    expect((await gateway(testApp, 'POST', `/actions/${action.name}/execute`, { token: tenant.jwt, body: { parameters: { city: 'Oslo' } } })).status).toBe(200);
    const body = receiver.calls[mark].body;
    const newest = created[created.length - 1].key;
    const signed = body.slice(0, body.lastIndexOf(',"signature":')) + '}';
    expect(JSON.parse(body).signature).toBe(createHmac('sha256', newest).update(signed).digest('hex'));
  });

  it('lists executions, tenants and API tokens newest first', async () => {
    const tenant = await createTenant(testApp);
    const action = actionBody(receiver.url());
    await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: action });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await gateway(testApp, 'POST', `/actions/${action.name}/execute`, { token: tenant.jwt, body: { parameters: { city: 'Oslo' } } })).body.execution.id);
    }
    const log = (await gateway(testApp, 'GET', `/actions/${action.name}/executions`, { token: tenant.jwt })).body.executions;
    expect(log.map((execution: { id: string }) => execution.id)).toEqual([...ids].reverse());

    const tokens: string[] = [];
    for (let i = 0; i < 4; i++) tokens.push((await admin(testApp, 'POST', `/tenants/${tenant.tenantId}/api-tokens`, { name: `t${i}` })).body.api_token.id);
    const listedTokens = (await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/api-tokens`)).body.api_tokens.map((token: { id: string }) => token.id);
    expect(listedTokens.slice(0, 4)).toEqual([...tokens].reverse());

    const tenants: string[] = [];
    for (let i = 0; i < 4; i++) tenants.push((await admin(testApp, 'POST', '/tenants', { name: `same-ms-${i}` })).body.tenant.id);
    // Other suites make tenants concurrently on a shared database: ours keep their order among whatever else is
    // listed (those, made after this app's stopped clock, come first: ours need not be on the first page).
    const listedTenants = (await listedTenantsAmong(testApp, tenants)).map((listed) => listed.id);
    expect(listedTenants).toEqual([...tenants].reverse());
  });
});
