import { admin } from './factories';
import { TestApp } from './test-app';

export interface ListedTenant {
  id: string;
  name: string;
  status: string;
  created_at: string;
  updated_at: string;
}

/**
 * The tenants among `ids` as GET /admin/tenants lists them, in its order (newest first), reading page after page
 * until all are seen or the list ends. On a shared database other suites make tenants all the while, so the first
 * page need not hold a test's own, nor do they stand next to each other.
 */
export async function listedTenantsAmong(testApp: TestApp, ids: string[]): Promise<ListedTenant[]> {
  const wanted = new Set(ids);
  const found: ListedTenant[] = [];
  let cursor: string | null = null;
  do {
    const response = await admin(testApp, 'GET', `/tenants?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (response.status !== 200) throw new Error(`GET /admin/tenants answered ${response.status}: ${response.text}`);
    found.push(...(response.body.tenants as ListedTenant[]).filter((tenant) => wanted.has(tenant.id)));
    cursor = response.body.next_cursor;
  } while (cursor !== null && found.length < wanted.size);
  return found;
}
