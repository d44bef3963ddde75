import { DataSource, EntityTarget, IsNull } from 'typeorm';
import { Action } from '../src/actions/action.entity';
import { ActionsRepository } from '../src/actions/actions.repository';
import { ACTION_COLUMNS } from '../src/actions/actions.sql';
import { ApiToken } from '../src/auth/api-token.entity';
import { ApiTokensRepository } from '../src/auth/api-tokens.repository';
import { API_TOKEN_COLUMNS, TOKEN_STANDING_COLUMNS } from '../src/auth/api-tokens.sql';
import { hashApiToken } from '../src/auth/token-credentials';
import { Execution } from '../src/executions/execution.entity';
import { COLUMNS as EXECUTION_COLUMNS } from '../src/executions/executions.sql';
import { Tenant } from '../src/tenancy/tenant.entity';
import { TenancyService } from '../src/tenancy/tenancy.service';
import { TenantsRepository } from '../src/tenancy/tenants.repository';
import { TENANT_COLUMNS, TENANT_STATUS_COLUMNS } from '../src/tenancy/tenants.sql';
import { HmacKey } from '../src/webhooks/hmac-key.entity';
import { HmacKeysRepository } from '../src/webhooks/hmac-keys.repository';
import { HMAC_KEY_COLUMNS, SIGNING_KEY_COLUMNS } from '../src/webhooks/hmac-keys.sql';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { Receiver } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Issue 16.5: the statements written by hand (hot reads, the execution INSERT) name their columns in one list
 * per table. A column added to an entity and forgotten there fails here, as does a row mapped differently
 * from TypeORM's own reading of it.
 */
describe('hand-written SQL agrees with the entities', () => {
  let service: TestApp;
  let dataSource: DataSource;
  let receiver: Receiver;
  let tenant: TestTenant;

  beforeAll(async () => {
    service = await startTestApp();
    dataSource = service.app.get(DataSource);
    receiver = await Receiver.start();
    tenant = await createTenant(service);
    for (let i = 0; i < 2; i++) {
      expect((await gateway(service, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url()) })).status).toBe(201);
    }
    expect((await admin(service, 'POST', `/tenants/${tenant.tenantId}/hmac-keys`)).status).toBe(201);
  });
  afterAll(async () => {
    await service?.close();
    await receiver?.stop();
  });

  const columnsOf = (entity: EntityTarget<object>) => dataSource.getMetadata(entity).columns.map((column) => column.databaseName).sort();

  it('lists every column of the tables it reads whole or writes', () => {
    expect([...ACTION_COLUMNS].sort()).toEqual(columnsOf(Action));
    expect([...API_TOKEN_COLUMNS].sort()).toEqual(columnsOf(ApiToken));
    expect([...TENANT_COLUMNS].sort()).toEqual(columnsOf(Tenant));
    expect([...HMAC_KEY_COLUMNS].sort()).toEqual(columnsOf(HmacKey));
    expect(EXECUTION_COLUMNS.split(', ').sort()).toEqual(columnsOf(Execution));
  });

  it('names only columns that exist where it reads a few', () => {
    for (const [columns, entity] of [
      [TOKEN_STANDING_COLUMNS, ApiToken],
      [TENANT_STATUS_COLUMNS, Tenant],
      [SIGNING_KEY_COLUMNS, HmacKey],
    ] as const) {
      expect(columnsOf(entity)).toEqual(expect.arrayContaining([...columns]));
    }
  });

  it('reads rows as TypeORM reads them', async () => {
    const tenantId = await service.app.get(TenancyService).requireId(tenant.tenantId);
    const actions = await service.app.get(ActionsRepository).actionsOfTenant(tenantId);
    expect(actions).toEqual(await dataSource.getRepository(Action).find({ where: { tenantId }, order: { name: 'ASC' } }));
    expect(actions).toHaveLength(2);

    const token = await dataSource.getRepository(ApiToken).findOneByOrFail({ id: tenant.apiTokenId });
    const found = await service.app.get(ApiTokensRepository).findByHashWithTenantStatus(hashApiToken(tenant.apiToken));
    expect(found).toEqual({ token, tenantStatus: 'active' });
    const standing = await service.app.get(ApiTokensRepository).standing(tenant.apiTokenId);
    expect(standing).toEqual({ tenantId: token.tenantId, expiresAt: token.expiresAt, revokedAt: token.revokedAt });

    const { status } = await dataSource.getRepository(Tenant).findOneByOrFail({ id: tenantId });
    expect(await service.app.get(TenantsRepository).status(tenantId)).toBe(status);

    const keys = await dataSource.getRepository(HmacKey).find({ where: { tenantId, revokedAt: IsNull() }, order: { createdAt: 'DESC', id: 'DESC' } });
    expect(await service.app.get(HmacKeysRepository).activeKeys(tenantId)).toEqual(keys.map(({ id, keyCiphertext }) => ({ id, keyCiphertext })));
    expect(keys).toHaveLength(2);

    // The management lists' pages, each row with its exact position.
    const stored = await dataSource.getRepository(Tenant).findOneByOrFail({ id: tenantId });
    const [position] = await dataSource.query('SELECT created_at::text AS position FROM tenants WHERE id = $1', [tenantId]);
    // Just after the tenant: its time, and an id above every other.
    const after = { createdAt: position.position as string, id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' };
    expect((await service.app.get(TenantsRepository).listPage(100, after)).find((listed) => listed.row.id === tenantId)).toEqual({ row: stored, position: { createdAt: position.position, id: tenantId } });
    const listedTokens = await service.app.get(ApiTokensRepository).listPage(tenantId, 100);
    expect(listedTokens.map(({ row }) => row)).toEqual(await dataSource.getRepository(ApiToken).find({ where: { tenantId }, order: { createdAt: 'DESC', id: 'DESC' } }));
    const listedKeys = await service.app.get(HmacKeysRepository).listPage(tenantId, 100);
    expect(listedKeys.map(({ row }) => row)).toEqual(await dataSource.getRepository(HmacKey).find({ where: { tenantId }, order: { createdAt: 'DESC', id: 'DESC' } }));
    expect(listedKeys).toHaveLength(2);
  });

  it('reads what is missing, or does not exist, as nothing', async () => {
    const tenancy = service.app.get(TenancyService);
    const empty = await tenancy.requireId((await tenancy.create('nothing yet')).id); // no action, no key
    expect(await service.app.get(ActionsRepository).actionsOfTenant(empty)).toEqual([]);
    expect(await service.app.get(HmacKeysRepository).activeKeys(empty)).toEqual([]);
    const unknown = crypto.randomUUID();
    expect(await service.app.get(ApiTokensRepository).standing(unknown)).toBeNull();
    expect(await service.app.get(TenantsRepository).status(unknown)).toBeNull();
  });
});
