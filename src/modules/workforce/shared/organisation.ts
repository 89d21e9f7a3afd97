/** The tenant's companies and departments as the time side of the workforce reads them. */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { CompanyTable, DepartmentTable } from '../workforce.tables.js';

type Executor = Kysely<DB> | Transaction<DB>;
export type CompanyRow = Selectable<CompanyTable>;
export type DepartmentRow = Selectable<DepartmentTable>;

/** Companies by id, soft-deleted ones included (a contract keeps showing the company it names). */
export async function companiesByIds(db: Executor, tenant: Tenant, ids: Iterable<string | null>): Promise<Map<string, CompanyRow>> {
  const wanted = [...new Set([...ids].filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('companies').selectAll().where('pbx_id', '=', tenant.pbxId).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export function findLiveCompany(db: Executor, tenant: Tenant, id: string): Promise<CompanyRow | undefined> {
  return db.selectFrom('companies').selectAll().where('id', '=', id).where('pbx_id', '=', tenant.pbxId).where('deleted_at', 'is', null).executeTakeFirst();
}

export function findLiveDepartment(db: Executor, tenant: Tenant, id: string): Promise<DepartmentRow | undefined> {
  return db.selectFrom('departments').selectAll().where('id', '=', id).where('pbx_id', '=', tenant.pbxId).where('deleted_at', 'is', null).executeTakeFirst();
}
