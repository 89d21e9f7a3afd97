import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { matchesSearch } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { fetchPage } from '../../../db/paging.js';

export interface ApiKeyFilters {
  search?: string;
  revoked?: boolean;
}

function integrationKeys(db: Kysely<DB>, tenant: Tenant, filters: ApiKeyFilters) {
  let query = db.selectFrom('api_keys').where('pbx_id', '=', tenant.pbxId).where('kind', '=', 'integration');
  if (filters.search) query = query.where(matchesSearch(['name'], filters.search));
  if (filters.revoked !== undefined) query = query.where('revoked_at', filters.revoked ? 'is not' : 'is', null);
  return query;
}

export async function listIntegrationKeys(db: Kysely<DB>, tenant: Tenant, filters: ApiKeyFilters, sort: SortTerm[], page: PageRequest) {
  return fetchPage(
    () => integrationKeys(db, tenant, filters),
    (query) => query.selectAll(),
    sort,
    page,
  );
}

export function findIntegrationKey(db: Kysely<DB>, tenant: Tenant, id: string) {
  return integrationKeys(db, tenant, {}).selectAll().where('id', '=', id).executeTakeFirst();
}
