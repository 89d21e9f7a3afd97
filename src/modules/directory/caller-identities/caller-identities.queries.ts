import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { matchesSearch } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { TrashedFilter } from '../../../http/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { CallerIdentityTable } from '../directory.tables.js';
import { fetchPage } from '../../../db/paging.js';
import { trashedScope } from '../../../http/soft-delete.js';

export interface CallerIdentityFilters {
  search?: string;
  userId?: string;
  /** Only identities this user may present (its own and the shared ones). */
  availableTo?: string;
  trashed?: TrashedFilter;
}

function identitiesOf(db: Kysely<DB>, tenant: Tenant, filters: CallerIdentityFilters) {
  let query = db.selectFrom('caller_identities').where('pbx_id', '=', tenant.pbxId);
  query = trashedScope(query, filters.trashed);
  if (filters.search) query = query.where(matchesSearch(['name', 'external_caller_number'], filters.search));
  if (filters.userId) query = query.where('user_id', '=', filters.userId);
  if (filters.availableTo) {
    const userId = filters.availableTo;
    query = query.where((eb) => eb.or([eb('user_id', '=', userId), eb('user_id', 'is', null)]));
  }
  return query;
}

export async function listCallerIdentities(db: Kysely<DB>, tenant: Tenant, filters: CallerIdentityFilters, sort: SortTerm[], page: PageRequest) {
  return fetchPage(
    () => identitiesOf(db, tenant, filters),
    (query) => query.selectAll(),
    sort,
    page,
  );
}

export function findCallerIdentity(db: Kysely<DB>, tenant: Tenant, id: string) {
  return identitiesOf(db, tenant, {}).selectAll().where('id', '=', id).executeTakeFirst();
}

/** Identities the given users may present: their own plus the PBX-wide ones. */
export function identitiesAvailableToUsers(db: Kysely<DB>, tenant: Tenant, userIds: string[]) {
  return identitiesOf(db, tenant, {})
    .selectAll()
    .where((eb) => eb.or([eb('user_id', 'is', null), ...(userIds.length ? [eb('user_id', 'in', userIds)] : [])]))
    .orderBy('name')
    .execute();
}

export async function insertCallerIdentity(db: Kysely<DB>, row: Insertable<CallerIdentityTable>): Promise<void> {
  await db.insertInto('caller_identities').values(row).execute();
}

export async function updateCallerIdentity(db: Kysely<DB>, tenant: Tenant, id: string, changes: Updateable<CallerIdentityTable>): Promise<void> {
  await db.updateTable('caller_identities').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
