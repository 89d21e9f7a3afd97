import type { Insertable, Kysely, Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { ContactImportTable, ImportStatus } from '../address-book.tables.js';
import { fetchPage } from '../../../db/paging.js';

type Db = Kysely<DB> | Transaction<DB>;

/** An import belongs to the user who uploaded it; nobody else (not even an admin) sees it. */
function owned(db: Db, tenant: Tenant, userId: string) {
  return db.selectFrom('contact_imports').where('pbx_id', '=', tenant.pbxId).where('user_id', '=', userId);
}

export function findOwnImport(db: Db, tenant: Tenant, userId: string, id: string) {
  return owned(db, tenant, userId).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listOwnImports(db: Db, tenant: Tenant, userId: string, status: ImportStatus | undefined, sort: SortTerm[], page: PageRequest) {
  const base = () => (status ? owned(db, tenant, userId).where('status', '=', status) : owned(db, tenant, userId));
  return fetchPage(
    () => base(),
    (query) => query.selectAll(),
    sort,
    page,
  );
}

export function insertImport(db: Db, row: Insertable<ContactImportTable>) {
  return db.insertInto('contact_imports').values(row).execute();
}

export function updateImport(db: Db, id: string, values: Partial<Insertable<ContactImportTable>>) {
  return db.updateTable('contact_imports').set(values).where('id', '=', id).executeTakeFirst();
}

export function deleteImport(db: Db, id: string) {
  return db.deleteFrom('contact_imports').where('id', '=', id).execute();
}

export function findImportById(db: Db, id: string) {
  return db.selectFrom('contact_imports').selectAll().where('id', '=', id).executeTakeFirst();
}

export function importRecords(db: Db, importId: string) {
  return db.selectFrom('contact_import_records').selectAll().where('import_id', '=', importId).orderBy('row').orderBy('id').execute();
}

export function importErrors(db: Db, importId: string) {
  return db.selectFrom('contact_import_errors').selectAll().where('import_id', '=', importId).orderBy('row').orderBy('id').execute();
}
