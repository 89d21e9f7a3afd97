import type { Insertable } from 'kysely';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { ContactImportTable, ImportStatus } from '../address-book.tables.js';
import { pagedQuery } from '../../../db/paging.js';
import type { Executor } from '../../../db/database.js';

/** What selects imports: the tenant, their owner, and a status when filtered. */
interface ImportScope {
  pbxId: string;
  userId: string;
  status?: ImportStatus;
}

/** An import belongs to the user who uploaded it; nobody else (not even an admin) sees it. */
function ownImports(db: Executor, scope: ImportScope) {
  const query = db.selectFrom('contact_imports').where('pbx_id', '=', scope.pbxId).where('user_id', '=', scope.userId);
  return scope.status ? query.where('status', '=', scope.status) : query;
}

export function findOwnImport(db: Executor, tenant: Tenant, userId: string, id: string) {
  return ownImports(db, { pbxId: tenant.pbxId, userId }).selectAll().where('id', '=', id).executeTakeFirst();
}

const ownImportPage = pagedQuery({ scoped: ownImports, columns: (query) => query.selectAll() });

export function listOwnImports(db: Executor, tenant: Tenant, userId: string, status: ImportStatus | undefined, sort: SortTerm[], page: PageRequest) {
  return ownImportPage(db, { pbxId: tenant.pbxId, userId, status }, sort, page);
}

export function insertImport(db: Executor, row: Insertable<ContactImportTable>) {
  return db.insertInto('contact_imports').values(row).execute();
}

export function updateImport(db: Executor, id: string, values: Partial<Insertable<ContactImportTable>>) {
  return db.updateTable('contact_imports').set(values).where('id', '=', id).executeTakeFirst();
}

export function deleteImport(db: Executor, id: string) {
  return db.deleteFrom('contact_imports').where('id', '=', id).execute();
}

export function findImportById(db: Executor, id: string) {
  return db.selectFrom('contact_imports').selectAll().where('id', '=', id).executeTakeFirst();
}

export function importRecords(db: Executor, importId: string) {
  return db.selectFrom('contact_import_records').selectAll().where('import_id', '=', importId).orderBy('row').orderBy('id').execute();
}

export function importErrors(db: Executor, importId: string) {
  return db.selectFrom('contact_import_errors').selectAll().where('import_id', '=', importId).orderBy('row').orderBy('id').execute();
}
