import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { actionBody, createTenant, gateway } from './support/factories';
import { describeIf, opensslCommand } from './support/requirements';
import { startTestApp, TestApp } from './support/test-app';

/** A receiver on 127.0.0.1 whose certificate no one vouches for: every call must fail, clearly, and be recorded. */
describeIf(opensslCommand())('a receiver with an invalid TLS certificate', () => {
  let testApp: TestApp;
  let server: Server;
  let url = '';

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agw-tls-'));
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-days', '1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]);
    expect(made.status).toBe(0);
    server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"should not be reached","error":""}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    testApp = await startTestApp();
  });
  afterAll(async () => {
    await testApp?.close();
    server?.close();
  });

  it('fails registration with a TLS reason, and an execution of a stored action is recorded as failed', async () => {
    const tenant = await createTenant(testApp);
    const refused = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(url) });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^action validation failed: webhook endpoint unreachable \(TLS error: [A-Z_]+\)$/);

    const { DataSource } = await import('typeorm');
    await testApp.app.get(DataSource).query(
      `INSERT INTO actions (id, tenant_id, name, description, json_schema, webhook_url, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, 'tls_stored', 'd', '{"type":"object"}', $2, now(), now())`,
      [tenant.tenantId, url],
    );
    const execution = (await gateway(testApp, 'POST', '/actions/tls_stored/execute', { token: tenant.jwt, body: {} })).body.execution;
    expect(execution).toMatchObject({ status: 'failed', http_status: null });
    expect(execution.error).toMatch(/^webhook endpoint unreachable \(TLS error: [A-Z_]+\)$/);
  });
});
