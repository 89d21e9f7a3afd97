import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { matchesSearch } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { TrashedFilter } from '../../../http/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { PhoneNumberTable } from '../directory.tables.js';
import { fetchPage } from '../../../db/paging.js';
import { trashedScope } from '../../../http/soft-delete.js';

export interface PhoneNumberFilters {
  search?: string;
  destinationType?: string;
  trashed?: TrashedFilter;
}

function numbersOf(db: Kysely<DB>, tenant: Tenant, filters: PhoneNumberFilters) {
  let query = db.selectFrom('phone_numbers').where('pbx_id', '=', tenant.pbxId);
  query = trashedScope(query, filters.trashed);
  if (filters.search) query = query.where(matchesSearch(['number', 'label'], filters.search));
  if (filters.destinationType) query = query.where('destination_type', '=', filters.destinationType);
  return query;
}

export async function listPhoneNumbers(db: Kysely<DB>, tenant: Tenant, filters: PhoneNumberFilters, sort: SortTerm[], page: PageRequest) {
  return fetchPage(
    () => numbersOf(db, tenant, filters),
    (query) => query.selectAll(),
    sort,
    page,
  );
}

export function findPhoneNumber(db: Kysely<DB>, tenant: Tenant, id: string, options: { withTrashed?: boolean } = {}) {
  return numbersOf(db, tenant, { trashed: options.withTrashed ? 'with' : 'without' })
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertPhoneNumber(db: Kysely<DB>, row: Insertable<PhoneNumberTable>): Promise<void> {
  await db.insertInto('phone_numbers').values(row).execute();
}

export async function updatePhoneNumber(db: Kysely<DB>, tenant: Tenant, id: string, changes: Updateable<PhoneNumberTable>): Promise<void> {
  await db.updateTable('phone_numbers').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
