import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../../db/paging.js';
import { matchesPattern, searchPattern } from '../../../../db/search.js';
import { trashedScope, type TrashedFilter } from '../../../../db/soft-delete.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { AbsenceTypeTable, LedgerTypeName } from '../absences.tables.js';
import type { Executor } from '../../../../db/database.js';

export type AbsenceTypeRow = Selectable<AbsenceTypeTable>;

export interface AbsenceTypeFilters {
  search?: string;
  type?: LedgerTypeName;
  trashed?: TrashedFilter;
}

/** What selects absence types: the tenant, and each filter that is set (`search` as a pattern). */
interface AbsenceTypeScope {
  pbxId: string;
  search?: string;
  type?: LedgerTypeName;
  trashed?: TrashedFilter;
}

function typesOf(db: Executor, scope: AbsenceTypeScope) {
  let query = trashedScope(db.selectFrom('absence_types').where('pbx_id', '=', scope.pbxId), scope.trashed);
  if (scope.search) query = query.where(matchesPattern(['name'], scope.search));
  if (scope.type) query = query.where('type', '=', scope.type);
  return query;
}

const absenceTypePage = pagedQuery({ scoped: typesOf, columns: (query) => query.selectAll(), choices: ['trashed'] });

export function listAbsenceTypes(db: Kysely<DB>, tenant: Tenant, filters: AbsenceTypeFilters, sort: SortTerm[], page: PageRequest) {
  return absenceTypePage(db, { pbxId: tenant.pbxId, ...filters, search: searchPattern(filters.search) }, sort, page);
}

export function findAbsenceType(db: Executor, tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<AbsenceTypeRow | undefined> {
  return typesOf(db, { pbxId: tenant.pbxId, trashed }).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertAbsenceType(db: Executor, row: Insertable<AbsenceTypeTable>): Promise<void> {
  await db.insertInto('absence_types').values(row).execute();
}

export async function updateAbsenceType(db: Executor, tenant: Tenant, id: string, changes: Updateable<AbsenceTypeTable>): Promise<void> {
  await db.updateTable('absence_types').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
