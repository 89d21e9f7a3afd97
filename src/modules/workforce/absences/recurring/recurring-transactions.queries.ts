import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { DialectName } from '../../../../db/database.js';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../../db/paging.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { RecurringStatus, RecurringTransactionTable } from '../absences.tables.js';
import type { Executor } from '../../../../db/database.js';

export type RecurringTransactionRow = Selectable<RecurringTransactionTable>;

export interface RecurringFilters {
  employeeId?: string;
  status?: RecurringStatus;
}

/** What selects live templates: the tenant, and each filter that is set. */
interface RecurringScope {
  pbxId: string;
  employeeId?: string;
  status?: RecurringStatus;
}

function templatesOf(db: Executor, scope: RecurringScope) {
  let query = db.selectFrom('recurring_transactions').where('pbx_id', '=', scope.pbxId).where('deleted_at', 'is', null);
  if (scope.employeeId) query = query.where('employee_id', '=', scope.employeeId);
  if (scope.status) query = query.where('status', '=', scope.status);
  return query;
}

const templatePage = pagedQuery({ scoped: templatesOf, columns: (query) => query.selectAll(), nullsLast: ['next_run_at'] });

export function listRecurringTransactions(db: Kysely<DB>, tenant: Tenant, filters: RecurringFilters, sort: SortTerm[], page: PageRequest) {
  return templatePage(db, { pbxId: tenant.pbxId, ...filters }, sort, page);
}

/** A live template of the tenant. */
export function findRecurringTransaction(db: Executor, tenant: Tenant, id: string): Promise<RecurringTransactionRow | undefined> {
  return templatesOf(db, { pbxId: tenant.pbxId }).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertRecurringTransaction(db: Executor, row: Insertable<RecurringTransactionTable>): Promise<void> {
  await db.insertInto('recurring_transactions').values(row).execute();
}

export async function updateRecurringTransaction(db: Executor, tenant: Tenant, id: string, changes: Updateable<RecurringTransactionTable>): Promise<void> {
  await db.updateTable('recurring_transactions').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

/**
 * Serialises a template's changes and runs (a run and a pause at once must not both win):
 * PostgreSQL locks the row until the transaction ends; SQLite runs one writing transaction at a time.
 */
export async function lockRecurringTransaction(trx: Transaction<DB>, dialect: DialectName, tenant: Tenant, id: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select id from recurring_transactions where id = ${id} and pbx_id = ${tenant.pbxId} for update`.execute(trx);
}
