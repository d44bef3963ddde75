import { randomUUID } from 'node:crypto';
import { call } from './http';
import { TestApp } from './test-app';

export interface TestTenant {
  tenantId: string;
  apiToken: string;
  apiTokenId: string;
  hmacKey: string;
  jwt: string;
}

/** Admin API call with the app's admin key. */
export function admin(testApp: TestApp, method: string, path: string, body?: unknown) {
  return call(testApp.baseUrl, method, `/api/v1/admin${path}`, { token: testApp.config.adminApiKey, body });
}

export function gateway(testApp: TestApp, method: string, path: string, options: { token?: string; body?: unknown; raw?: string | Buffer; headers?: Record<string, string> } = {}) {
  return call(testApp.baseUrl, method, `/api/v1/gateway${path}`, options);
}

/** A tenant made through the management API, with an API token, an HMAC key and a bearer token. */
export async function createTenant(testApp: TestApp, options: { hmacKey?: boolean } = {}): Promise<TestTenant> {
  const tenant = await admin(testApp, 'POST', '/tenants', { name: `tenant-${randomUUID()}` });
  const tenantId = tenant.body.tenant.id as string;
  const token = await admin(testApp, 'POST', `/tenants/${tenantId}/api-tokens`, { name: 'test' });
  const hmacKey = options.hmacKey === false ? '' : (await admin(testApp, 'POST', `/tenants/${tenantId}/hmac-keys`)).body.hmac_key.key;
  const exchange = await gateway(testApp, 'POST', '/token/exchange', { body: { api_token: token.body.api_token.token } });
  return { tenantId, apiToken: token.body.api_token.token, apiTokenId: token.body.api_token.id, hmacKey, jwt: exchange.body.jwt_token };
}

let counter = 0;

/** A valid create-action body pointing at `webhookUrl`. */
export function actionBody(webhookUrl: string, overrides: Record<string, unknown> = {}): { name: string; description: string; webhook_url: string; [field: string]: unknown } {
  return {
    name: `action_${process.pid}_${++counter}`,
    description: 'Looks up the weather',
    webhook_url: webhookUrl,
    json_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    ...overrides,
  };
}
