import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../../db/paging.js';
import { matchesPattern, searchPattern } from '../../../../db/search.js';
import { trashedScope, type TrashedFilter } from '../../../../db/soft-delete.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { EmployeeTable } from '../organisation.tables.js';
import type { Executor } from '../../../../db/database.js';
import { reusableQuery } from '../../../../db/reusable-query.js';

/** An employee with the live user linked to it (`users.employee_id`), if any. */
export type EmployeeRow = Selectable<EmployeeTable> & { user_id: string | null };

export interface EmployeeFilters {
  search?: string;
  userId?: string;
  hasUser?: boolean;
  trashed?: TrashedFilter;
}

/** What selects employees: the tenant, the search's words as patterns, and each other filter that is set. */
interface EmployeeScope {
  pbxId: string;
  words?: string[];
  userId?: string;
  hasUser?: boolean;
  trashed?: TrashedFilter;
}

/** The tenant's employees joined to their linked user; a soft-deleted user is linked to no one. */
function employeesOf(db: Executor, scope: EmployeeScope) {
  let query = db
    .selectFrom('employees')
    .leftJoin('users', (join) => join.onRef('users.employee_id', '=', 'employees.id').on('users.pbx_id', '=', scope.pbxId).on('users.deleted_at', 'is', null))
    .where('employees.pbx_id', '=', scope.pbxId);
  query = trashedScope(query, scope.trashed, 'employees.deleted_at');
  // Every word must match a name or the ext_id, so "Anna Schmit" and "Schmit Anna" both find her.
  for (const word of scope.words ?? []) query = query.where(matchesPattern(['employees.first_name', 'employees.last_name', 'employees.ext_id'], word));
  if (scope.userId) query = query.where('users.id', '=', scope.userId);
  if (scope.hasUser !== undefined) query = query.where('users.id', scope.hasUser ? 'is not' : 'is', null);
  return query;
}

const employeePage = pagedQuery({
  scoped: employeesOf,
  columns: (query) => query.selectAll('employees').select('users.id as user_id'),
  choices: ['trashed'],
  qualify: 'employees',
  // Employees without an HR id come after the others, whichever the direction.
  nullsLast: ['ext_id'],
});

/** The LIKE patterns of a search's words (none for no search). */
function wordPatterns(search: string | undefined): string[] {
  return (search ?? '').split(/\s+/).flatMap((word) => searchPattern(word) ?? []);
}

export function listEmployees(db: Executor, tenant: Tenant, filters: EmployeeFilters, sort: SortTerm[], page: PageRequest) {
  const { search, ...others } = filters;
  return employeePage(db, { pbxId: tenant.pbxId, ...others, words: wordPatterns(search) }, sort, page);
}

/** `findEmployee` of a live employee, compiled once per database (every administrator's read of an employee asks it). */
const liveEmployee = reusableQuery((db, pbxId: string, id: string) =>
  employeesOf(db, { pbxId, trashed: 'without' }).selectAll('employees').select('users.id as user_id').where('employees.id', '=', id),
);

export async function findEmployee(db: Executor, tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<EmployeeRow | undefined> {
  if (trashed === 'without') return (await liveEmployee(db, tenant.pbxId, id))[0];
  return employeesOf(db, { pbxId: tenant.pbxId, trashed })
    .selectAll('employees')
    .select('users.id as user_id')
    .where('employees.id', '=', id)
    .executeTakeFirst();
}

/** The employee holding an ext_id in the tenant, soft-deleted ones included (the unique index covers them). */
export function findEmployeeByExtId(db: Executor, tenant: Tenant, extId: string) {
  return db.selectFrom('employees').selectAll().where('pbx_id', '=', tenant.pbxId).where('ext_id', '=', extId).executeTakeFirst();
}

/** A user of the tenant that may be linked (not deleted), with the employee it is linked to now. */
export function findLinkableUser(db: Executor, tenant: Tenant, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'status', 'employee_id'])
    .where('id', '=', userId)
    .where('pbx_id', '=', tenant.pbxId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Unlinks whichever user is linked to the employee. */
export async function unlinkEmployee(db: Executor, tenant: Tenant, employeeId: string, now: string): Promise<void> {
  await db.updateTable('users').set({ employee_id: null, updated_at: now }).where('pbx_id', '=', tenant.pbxId).where('employee_id', '=', employeeId).execute();
}

/**
 * Links the user to the employee unless, by now, it is linked to another live employee: the
 * condition is part of the update, so two requests cannot both take the same user. False when
 * the user was taken.
 */
export async function linkUser(db: Executor, tenant: Tenant, userId: string, employeeId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ employee_id: employeeId, updated_at: now })
    .where('id', '=', userId)
    .where('pbx_id', '=', tenant.pbxId)
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('users.employee_id', 'is', null),
        eb('users.employee_id', '=', employeeId),
        eb.not(
          eb.exists(
            eb
              .selectFrom('employees')
              .select(sql`1`.as('one'))
              .whereRef('employees.id', '=', 'users.employee_id')
              .whereRef('employees.pbx_id', '=', 'users.pbx_id')
              .where('employees.deleted_at', 'is', null),
          ),
        ),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Users of the tenant by e-mail address (the demo seed links its people this way). */
export async function userIdsByEmail(db: Executor, tenant: Tenant, emails: readonly string[]): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('pbx_id', '=', tenant.pbxId)
    .where(
      'email',
      'in',
      emails.map((email) => email.toLowerCase()),
    )
    .execute();
  return new Map(rows.map((row) => [row.email, row.id]));
}

export async function insertEmployee(db: Executor, row: Insertable<EmployeeTable>): Promise<void> {
  await db.insertInto('employees').values(row).execute();
}

export async function updateEmployee(db: Executor, tenant: Tenant, id: string, changes: Updateable<EmployeeTable>): Promise<void> {
  await db.updateTable('employees').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

/** `employeeId` when it names a live employee of the tenant, else null: what a user's `/me` shows as its employee. */
export async function liveEmployeeId(db: Executor, tenant: Tenant, employeeId: string | null): Promise<string | null> {
  if (!employeeId) return null;
  const row = await db
    .selectFrom('employees')
    .select('id')
    .where('id', '=', employeeId)
    .where('pbx_id', '=', tenant.pbxId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Which of `ids` are live employees of the tenant (one query). */
export async function liveEmployeeIds(db: Executor, tenant: Tenant, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('employees')
    .select('id')
    .where('pbx_id', '=', tenant.pbxId)
    .where('id', 'in', [...new Set(ids)])
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/*
 * What the other workforce sub-domains read of an employee within their own statements (one round
 * trip each, as before they moved out): the query is built here, so the table stays the
 * organisation's.
 */

/**
 * The external id of the employee that `employeeIdColumn` of the enclosing statement names (e.g.
 * `'absence_requests.employee_id'`), selected as `ext_id`: every ledger row and contract shows it.
 */
export function employeeExtIdOf(employeeIdColumn: string) {
  return sql<string | null>`(select employees.ext_id from employees where employees.id = ${sql.ref(employeeIdColumn)})`.as('ext_id');
}

/** The tenant's live employees with their names, for another sub-domain to join (aliased) in its statement. */
export function liveEmployeeNames(db: Executor, tenant: Tenant) {
  return db
    .selectFrom('employees')
    .select(['employees.id', 'employees.first_name', 'employees.last_name'])
    .where('employees.pbx_id', '=', tenant.pbxId)
    .where('employees.deleted_at', 'is', null);
}

/** The names of the tenant's employees among `ids`, deleted ones included (a schedule shows whom it booked). */
export async function employeeNamesByIds(
  db: Executor,
  tenant: Tenant,
  ids: readonly string[],
): Promise<Array<{ id: string; first_name: string; last_name: string }>> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('employees')
    .select(['id', 'first_name', 'last_name'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
}
