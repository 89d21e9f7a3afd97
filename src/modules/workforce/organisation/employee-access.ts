/**
 * Who a `/{pbx_id}/user/{employee_id}/...` request may act on. The link from a user to its
 * employee record is `users.employee_id`; administrators and the PBX API key manage every
 * employee of the PBX.
 */
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { DialectName } from '../../../db/database.js';
import { reusableQuery } from '../../../db/reusable-query.js';
import { isAdmin, type Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import { Forbidden, NotFound } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { EmployeeTable } from './organisation.tables.js';
import { findEmployee } from './employees/employees.queries.js';
import { findSettings } from './settings/settings.queries.js';
import { todayIn, type CalendarDay } from '../shared/index.js';
import type { Executor } from '../../../db/database.js';

export type EmployeeRow = Selectable<EmployeeTable>;

const EMPLOYEE_NOT_FOUND = 'Employee not found.';
const NOT_YOURS = 'You may only act on your own employee record.';

/** The live employee record a user is linked to (`users.employee_id`), as a query. */
function linkedEmployee(db: Executor, tenant: Tenant, userId: string) {
  return db
    .selectFrom('users')
    .innerJoin('employees', 'employees.id', 'users.employee_id')
    .where('users.id', '=', userId)
    .where('users.pbx_id', '=', tenant.pbxId)
    .where('users.deleted_at', 'is', null)
    .where('employees.pbx_id', '=', tenant.pbxId)
    .where('employees.deleted_at', 'is', null);
}

/** `linkedEmployee`'s row, compiled once per database: every workforce read of a plain user asks it. */
const linkedEmployeeRow = reusableQuery((db, pbxId: string, userId: string) => linkedEmployee(db, { pbxId }, userId).selectAll('employees'));

/** The live employee record a user token's user is linked to, if any (one query). */
export async function callerEmployee(db: Kysely<DB>, tenant: Tenant, principal: Principal): Promise<EmployeeRow | undefined> {
  if (principal.kind !== 'user') return undefined;
  return (await linkedEmployeeRow(db, tenant.pbxId, principal.userId))[0];
}

/**
 * The id of the live employee a user is linked to, as a subquery another sub-domain selects within
 * its own statement (the absence routes read it beside the tenant's settings in one).
 */
export function linkedEmployeeId(db: Executor, tenant: Tenant, userId: string) {
  return linkedEmployee(db, tenant, userId).select('employees.id');
}

/** An administrator of the PBX or its API key: they manage every employee. */
export const managesEmployees = (principal: Principal) => principal.kind === 'pbx' || isAdmin(principal);

/**
 * The employee a read acts on: the caller's own record, or for an administrator or the PBX key any
 * employee of the PBX. Someone else's record is 403 before anything is looked up (no existence
 * oracle for plain users); an unknown or deleted employee is 404 for those who may ask.
 */
export async function employeeForRead(db: Kysely<DB>, tenant: Tenant, principal: Principal, employeeId: string): Promise<EmployeeRow> {
  if (!managesEmployees(principal)) {
    const own = await callerEmployee(db, tenant, principal);
    if (own?.id !== employeeId) throw new Forbidden(NOT_YOURS);
    return own;
  }
  const employee = await findEmployee(db, tenant, employeeId);
  if (!employee) throw new NotFound(EMPLOYEE_NOT_FOUND);
  return employee;
}

/** The employee an administrative write acts on (the route admits administrators and the PBX key only). */
export async function employeeForWrite(db: Executor, tenant: Tenant, employeeId: string): Promise<EmployeeRow> {
  const employee = await findEmployee(db, tenant, employeeId);
  if (!employee) throw new NotFound(EMPLOYEE_NOT_FOUND);
  return employee;
}

/**
 * Only the caller's own, live employee record: anyone else (administrators included), a user
 * without an employee record and an unknown id are the same 403.
 */
export async function ownEmployeeOnly(db: Kysely<DB>, tenant: Tenant, principal: Principal, employeeId: string): Promise<EmployeeRow> {
  const own = await callerEmployee(db, tenant, principal);
  if (!own) throw new Forbidden('You have no employee record.');
  if (own.id !== employeeId) throw new Forbidden(NOT_YOURS);
  return own;
}

/**
 * Serialises writes that check an employee's other rows (one main contract, assignments that must
 * not overlap): PostgreSQL locks the employee's row until the transaction ends; SQLite runs one
 * writing transaction at a time already.
 */
export async function lockEmployee(trx: Transaction<DB>, dialect: DialectName, tenant: Tenant, employeeId: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select id from employees where id = ${employeeId} and pbx_id = ${tenant.pbxId} for update`.execute(trx);
}

/** The PBX's time zone (IANA), in which its days and its recurring transactions' periods begin. */
export async function tenantZone(db: Executor, tenant: Tenant): Promise<string> {
  const settings = await findSettings(db, tenant);
  if (!settings) throw new Error(`no PBX ${tenant.pbxId}`);
  return settings.timezone;
}

/** The tenant's today, in the PBX's time zone. */
export async function tenantToday(ctx: AppContext, tenant: Tenant): Promise<CalendarDay> {
  return todayIn(await tenantZone(ctx.db, tenant), ctx.clock);
}
