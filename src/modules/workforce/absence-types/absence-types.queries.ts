import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { fetchPage, type PageRequest, type SortTerm } from '../../../db/paging.js';
import { matchesSearch } from '../../../db/search.js';
import { trashedScope, type TrashedFilter } from '../../../http/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { AbsenceTypeTable, LedgerTypeName } from '../recurring.tables.js';

type Executor = Kysely<DB> | Transaction<DB>;
export type AbsenceTypeRow = Selectable<AbsenceTypeTable>;

export interface AbsenceTypeFilters {
  search?: string;
  type?: LedgerTypeName;
  trashed?: TrashedFilter;
}

function typesOf(db: Executor, tenant: Tenant, filters: AbsenceTypeFilters) {
  let query = trashedScope(db.selectFrom('absence_types').where('pbx_id', '=', tenant.pbxId), filters.trashed);
  if (filters.search) query = query.where(matchesSearch(['name'], filters.search));
  if (filters.type) query = query.where('type', '=', filters.type);
  return query;
}

export function listAbsenceTypes(db: Kysely<DB>, tenant: Tenant, filters: AbsenceTypeFilters, sort: SortTerm[], page: PageRequest) {
  return fetchPage(
    () => typesOf(db, tenant, filters),
    (query) => query.selectAll(),
    sort,
    page,
  );
}

export function findAbsenceType(db: Executor, tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<AbsenceTypeRow | undefined> {
  return typesOf(db, tenant, { trashed }).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertAbsenceType(db: Executor, row: Insertable<AbsenceTypeTable>): Promise<void> {
  await db.insertInto('absence_types').values(row).execute();
}

export async function updateAbsenceType(db: Executor, tenant: Tenant, id: string, changes: Updateable<AbsenceTypeTable>): Promise<void> {
  await db.updateTable('absence_types').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
