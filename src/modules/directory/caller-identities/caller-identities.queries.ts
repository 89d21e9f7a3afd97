import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { matchesPattern, searchPattern } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { TrashedFilter } from '../../../db/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { CallerIdentityTable } from '../directory.tables.js';
import { pagedQuery } from '../../../db/paging.js';
import { valuesQuery } from '../../../db/values-query.js';
import { trashedScope } from '../../../db/soft-delete.js';

export type CallerIdentityRow = Selectable<CallerIdentityTable>;

export interface CallerIdentityFilters {
  search?: string;
  userId?: string;
  /** Only identities this user may present (its own and the shared ones). */
  availableTo?: string;
  trashed?: TrashedFilter;
}

/** What selects caller identities: the tenant, and each filter that is set (`search` as a pattern). */
interface CallerIdentityScope {
  pbxId: string;
  search?: string;
  userId?: string;
  availableTo?: string;
  trashed?: TrashedFilter;
}

function identitiesOf(db: Kysely<DB>, scope: CallerIdentityScope) {
  let query = db.selectFrom('caller_identities').where('pbx_id', '=', scope.pbxId);
  query = trashedScope(query, scope.trashed);
  if (scope.search) query = query.where(matchesPattern(['name', 'external_caller_number'], scope.search));
  if (scope.userId) query = query.where('user_id', '=', scope.userId);
  if (scope.availableTo) {
    const userId = scope.availableTo;
    query = query.where((eb) => eb.or([eb('user_id', '=', userId), eb('user_id', 'is', null)]));
  }
  return query;
}

const callerIdentityPage = pagedQuery({ scoped: identitiesOf, columns: (query) => query.selectAll(), choices: ['trashed'] });

export function listCallerIdentities(db: Kysely<DB>, tenant: Tenant, filters: CallerIdentityFilters, sort: SortTerm[], page: PageRequest) {
  return callerIdentityPage(db, { pbxId: tenant.pbxId, ...filters, search: searchPattern(filters.search) }, sort, page);
}

export function findCallerIdentity(db: Kysely<DB>, tenant: Tenant, id: string) {
  return identitiesOf(db, { pbxId: tenant.pbxId }).selectAll().where('id', '=', id).executeTakeFirst();
}

// A user list's `include=callerIdentities`: compiled once per number of users.
const identitiesAvailableToUserIds = valuesQuery((db, v: { pbxId: string; userIds: readonly string[] }) =>
  identitiesOf(db, { pbxId: v.pbxId })
    .selectAll()
    .where((eb) => eb.or([eb('user_id', 'is', null), ...(v.userIds.length ? [eb('user_id', 'in', v.userIds)] : [])]))
    .orderBy('name'),
);

/** Identities the given users may present: their own plus the PBX-wide ones. */
export function identitiesAvailableToUsers(db: Kysely<DB>, tenant: Tenant, userIds: string[]) {
  return identitiesAvailableToUserIds(db, { pbxId: tenant.pbxId, userIds });
}

export async function insertCallerIdentity(db: Kysely<DB>, row: Insertable<CallerIdentityTable>): Promise<void> {
  await db.insertInto('caller_identities').values(row).execute();
}

export async function updateCallerIdentity(db: Kysely<DB>, tenant: Tenant, id: string, changes: Updateable<CallerIdentityTable>): Promise<void> {
  await db.updateTable('caller_identities').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
