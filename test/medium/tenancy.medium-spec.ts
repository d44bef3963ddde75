import { AdminService } from '../../src/admin/admin.service';
import { ApiTokensService } from '../../src/auth/api-tokens.service';
import { TenancyService } from '../../src/tenancy/tenancy.service';
import { TenantsRepository } from '../../src/tenancy/tenants.repository';
import { Services, TwoTenants, twoTenantSuite } from '../support/medium';

/** Renaming, disabling and reading tenant A changes nothing of tenant B's, and B's credentials keep working. */
describe('tenancy: tenant A never reaches tenant B (medium)', () => {
  const suite = twoTenantSuite();
  let world: TwoTenants;
  let services: Services;
  beforeEach(() => {
    ({ world } = suite);
    services = suite.services;
  });

  it('TenantsRepository: findById reads A, update writes A only', async () => {
    const repository = services.get(TenantsRepository);
    const tenant = await world.byA(() => repository.findById(world.a.id));
    expect(tenant?.id).toBe(world.a.id);
    const updated = await world.byA(() => repository.update(world.a.id, { name: 'renamed by A' }, new Date()));
    expect(updated).toMatchObject({ id: world.a.id, name: 'renamed by A' });
    expect((await world.stored(world.a.id)).tenants).toEqual([expect.objectContaining({ name: 'renamed by A' })]);
  });

  it('TenancyService: get, requireId and update act on A only', async () => {
    const tenancy = services.get(TenancyService);
    expect((await world.byA(() => tenancy.get(world.a.id))).id).toBe(world.a.id);
    expect(await world.byA(() => tenancy.requireId(world.a.id))).toBe(world.a.id);
    const updated = await world.byA(() => tenancy.update(world.a.id, { name: 'renamed by A', status: 'disabled' }));
    expect(updated).toMatchObject({ id: world.a.id, name: 'renamed by A', status: 'disabled' });
    expect(await tenancy.isActive(world.b.id)).toBe(true);
  });

  it('AdminService: disabling A stops A’s tokens and leaves B’s working (cached standing included)', async () => {
    const tokens = services.get(ApiTokensService);
    for (const token of world.b.apiTokens) expect(await tokens.isUsable(token.id, world.b.id)).toBe(true);
    expect(await tokens.isUsable(world.a.apiTokens[0].id, world.a.id)).toBe(true);
    await world.byA(() => services.get(AdminService).updateTenant(world.a.id, { status: 'disabled' }));
    expect(await tokens.isUsable(world.a.apiTokens[0].id, world.a.id)).toBe(false);
    for (const token of world.b.apiTokens) expect(await tokens.isUsable(token.id, world.b.id)).toBe(true);
    expect((await tokens.verify(world.b.apiTokens[0].token)).tenantId).toBe(world.b.id);
  });
});
