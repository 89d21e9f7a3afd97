import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { matchesPattern, searchPattern } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { pagedQuery } from '../../../db/paging.js';

export interface ApiKeyFilters {
  search?: string;
  revoked?: boolean;
}

/** What selects integration keys: the tenant, and a search pattern and revocation state when filtered. */
interface ApiKeyScope {
  pbxId: string;
  search?: string;
  revoked?: boolean;
}

function integrationKeys(db: Kysely<DB>, scope: ApiKeyScope) {
  let query = db.selectFrom('api_keys').where('pbx_id', '=', scope.pbxId).where('kind', '=', 'integration');
  if (scope.search) query = query.where(matchesPattern(['name'], scope.search));
  if (scope.revoked !== undefined) query = query.where('revoked_at', scope.revoked ? 'is not' : 'is', null);
  return query;
}

const integrationKeyPage = pagedQuery({ scoped: integrationKeys, columns: (query) => query.selectAll() });

export function listIntegrationKeys(db: Kysely<DB>, tenant: Tenant, filters: ApiKeyFilters, sort: SortTerm[], page: PageRequest) {
  return integrationKeyPage(db, { pbxId: tenant.pbxId, search: searchPattern(filters.search), revoked: filters.revoked }, sort, page);
}

export function findIntegrationKey(db: Kysely<DB>, tenant: Tenant, id: string) {
  return integrationKeys(db, { pbxId: tenant.pbxId }).selectAll().where('id', '=', id).executeTakeFirst();
}
