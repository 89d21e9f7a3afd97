import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { DialectName } from '../../../../db/database.js';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../../db/paging.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { CalendarDay } from '../../shared/index.js';
import { employeeExtIdOf, linkedEmployeeId } from '../../organisation/index.js';
import { whereVisibleTo } from './absence-request.policy.js';
import type { AbsenceRequestTable, AbsenceRequestValidatorTable, StoredAbsenceStatus, StoredAbsenceType, ValidatorStatus } from '../absences.tables.js';
import type { Executor } from '../../../../db/database.js';
import { shapedQuery } from '../../../../db/reusable-query.js';

export type AbsenceTableRow = Selectable<AbsenceRequestTable>;
/** A ledger row with its employee's external id, as every answer shows it. */
export type AbsenceRow = AbsenceTableRow & { ext_id: string | null };
export type ValidatorRow = Selectable<AbsenceRequestValidatorTable>;

/** The rows that hold days: asked for, granted, or granted with a removal asked (removal rows themselves hold none). */
export const LIVE_STATUSES: StoredAbsenceStatus[] = ['pending', 'approved', 'pending_removal'];
/** The rows that count as away: granted, including granted with a removal pending. */
export const GRANTED_STATUSES: StoredAbsenceStatus[] = ['approved', 'pending_removal'];

export interface AbsenceFilters {
  employeeId?: string;
  statuses?: StoredAbsenceStatus[];
  types?: StoredAbsenceType[];
  from?: CalendarDay;
  to?: CalendarDay;
  /** A plain user sees its own rows and those it validates. */
  visibleTo?: string;
  /** Pending rows with an entry still pending for this validator's employee id, or (`{ any: true }`) any pending entry, for administrators. */
  awaiting?: { employeeId: string } | { any: true };
}

const SORT_COLUMNS: Record<string, string> = { start: 'start_day', created: 'created_at' };

/** The employee's external id, which every answer shows beside the row. */
const EXT_ID = employeeExtIdOf('absence_requests.employee_id');

function validatorEntries(db: Executor) {
  return db.selectFrom('absence_request_validators').select('absence_request_validators.absence_request_id');
}

/** What selects ledger rows: the tenant, each filter that is set, and `awaiting` (with the validator's employee id for a plain user). */
interface AbsenceScope extends Omit<AbsenceFilters, 'awaiting'> {
  pbxId: string;
  /** Pending rows with a pending entry: any entry, or that of `awaitingEmployeeId` when set. */
  awaiting?: boolean;
  awaitingEmployeeId?: string;
}

function absencesOf(db: Executor, scope: AbsenceScope) {
  let query = db.selectFrom('absence_requests').where('absence_requests.pbx_id', '=', scope.pbxId);
  const { employeeId, statuses, types, from, to, visibleTo, awaitingEmployeeId } = scope;
  if (employeeId) query = query.where('absence_requests.employee_id', '=', employeeId);
  if (statuses?.length) query = query.where('absence_requests.status', 'in', statuses);
  if (types?.length) query = query.where('absence_requests.type', 'in', types);
  if (from) query = query.where('absence_requests.end_day', '>=', from);
  if (to) query = query.where('absence_requests.start_day', '<=', to);
  if (visibleTo) query = query.where((eb) => whereVisibleTo(eb, visibleTo));
  if (scope.awaiting) {
    let entries = validatorEntries(db).where('absence_request_validators.status', '=', 'pending').where('absence_request_validators.pbx_id', '=', scope.pbxId);
    if (awaitingEmployeeId) entries = entries.where('absence_request_validators.employee_id', '=', awaitingEmployeeId);
    query = query.where('absence_requests.status', '=', 'pending').where('absence_requests.id', 'in', entries);
  }
  return query;
}

const absencePage = pagedQuery({
  scoped: absencesOf,
  columns: (query) => query.selectAll('absence_requests').select(EXT_ID),
  qualify: 'absence_requests',
});

export function listAbsenceRequests(db: Kysely<DB>, tenant: Tenant, filters: AbsenceFilters, sort: SortTerm[], page: PageRequest) {
  const { awaiting, ...others } = filters;
  const awaitingEmployeeId = awaiting && 'employeeId' in awaiting ? awaiting.employeeId : undefined;
  return absencePage(
    db,
    { pbxId: tenant.pbxId, ...others, awaiting: awaiting !== undefined, awaitingEmployeeId },
    sort.map((term) => ({ ...term, field: SORT_COLUMNS[term.field] ?? term.field })),
    page,
  );
}

export function findAbsenceRequest(db: Executor, tenant: Tenant, id: string): Promise<AbsenceRow | undefined> {
  return absencesOf(db, { pbxId: tenant.pbxId }).selectAll('absence_requests').select(EXT_ID).where('absence_requests.id', '=', id).executeTakeFirst();
}

/** A ledger row with every validator entry, in order: what the policy and the presenter read. */
export type LoadedAbsence = AbsenceRow & { validators: ValidatorRow[] };

/**
 * A row with its validator entries, in one statement (the entries joined). `lock` serialises the
 * moves of one request (two validators approving at once must debit once): PostgreSQL locks the
 * row until the transaction ends, in a statement of its own (a statement that waited for the lock
 * reads the other tables as they were when it began, so the entries are read after it); SQLite
 * runs one writing transaction at a time.
 */
export async function findLoadedAbsence(db: Executor, tenant: Tenant, id: string, lock?: DialectName): Promise<LoadedAbsence | undefined> {
  if (lock === 'postgres') await sql`select id from absence_requests where id = ${id} and pbx_id = ${tenant.pbxId} for update`.execute(db);
  const rows = await absencesOf(db, { pbxId: tenant.pbxId })
    .leftJoin('absence_request_validators as entry', (join) =>
      join.onRef('entry.absence_request_id', '=', 'absence_requests.id').on('entry.pbx_id', '=', tenant.pbxId),
    )
    .selectAll('absence_requests')
    .select([
      EXT_ID,
      'entry.id as entry_id',
      'entry.position as entry_position',
      'entry.employee_id as entry_employee_id',
      'entry.status as entry_status',
      'entry.decided_by_user_id as entry_decided_by_user_id',
      'entry.decided_at as entry_decided_at',
    ])
    .where('absence_requests.id', '=', id)
    .orderBy('entry.position')
    .execute();
  if (rows.length === 0) return undefined;
  const {
    entry_id: _id,
    entry_position: _position,
    entry_employee_id: _employee,
    entry_status: _status,
    entry_decided_by_user_id: _by,
    entry_decided_at: _at,
    ...row
  } = rows[0];
  const validators: ValidatorRow[] = [];
  for (const entry of rows)
    if (entry.entry_id !== null)
      validators.push({
        id: entry.entry_id,
        pbx_id: tenant.pbxId,
        absence_request_id: row.id,
        position: entry.entry_position as number,
        employee_id: entry.entry_employee_id,
        status: entry.entry_status as ValidatorStatus,
        decided_by_user_id: entry.entry_decided_by_user_id,
        decided_at: entry.entry_decided_at,
      });
  return { ...row, validators };
}

/**
 * What every absence route resolves once per request, in one statement: the live employee record
 * a user token's user is linked to, and the tenant's half-day split and time zone.
 */
export async function callerAndSettings(
  db: Kysely<DB>,
  tenant: Tenant,
  userId: string | null,
): Promise<{ employeeId: string | null; halfDaySplit: string; timezone: string }> {
  const base = db.selectFrom('pbxes').select(['pbxes.half_day_split', 'pbxes.timezone']).where('pbxes.id', '=', tenant.pbxId);
  const row =
    userId === null
      ? await base.select(sql<string | null>`null`.as('employee_id')).executeTakeFirst()
      : await base.select(linkedEmployeeId(db, tenant, userId).as('employee_id')).executeTakeFirst();
  if (!row) throw new Error(`no PBX ${tenant.pbxId}`);
  return { employeeId: row.employee_id, halfDaySplit: row.half_day_split, timezone: row.timezone };
}

/** Rows by id, in first-day order (unknown ids are left out). */
export function absenceRequestsByIds(db: Executor, tenant: Tenant, ids: string[]): Promise<AbsenceRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return absencesOf(db, { pbxId: tenant.pbxId })
    .selectAll('absence_requests')
    .select(EXT_ID)
    .where('absence_requests.id', 'in', ids)
    .orderBy('absence_requests.start_day')
    .orderBy('absence_requests.id')
    .execute();
}

/** The removal row still pending for a request, if any. */
export function pendingRemovalOf(db: Executor, tenant: Tenant, requestId: string): Promise<AbsenceTableRow | undefined> {
  return db
    .selectFrom('absence_requests')
    .selectAll()
    .where('pbx_id', '=', tenant.pbxId)
    .where('removal_of_id', '=', requestId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
}

/** `rowsOverlapping`'s statement by its number of statuses, compiled once per database (every required work time and absence amount reads it). */
const overlappingRows = shapedQuery<AbsenceTableRow>();

/**
 * An employee's rows of some statuses overlapping `from`..`to`, removal rows and balance
 * adjustments left out (they hold no days of their own), in order of their first day.
 */
export async function rowsOverlapping(
  db: Executor,
  tenant: Tenant,
  employeeId: string,
  from: CalendarDay,
  to: CalendarDay,
  statuses: StoredAbsenceStatus[],
): Promise<AbsenceTableRow[]> {
  const values: Record<string, unknown> = { pbxId: tenant.pbxId, employeeId, from, to };
  statuses.forEach((status, i) => (values[`status${i}`] = status));
  return overlappingRows(db, statuses.length.toString(), values, (p) =>
    db
      .selectFrom('absence_requests')
      .selectAll()
      .where('pbx_id', '=', p<string>('pbxId'))
      .where('employee_id', '=', p<string>('employeeId'))
      .where(
        'status',
        'in',
        statuses.map((_, i) => p<StoredAbsenceStatus>(`status${i}`)),
      )
      .where('sub_type', 'is', null)
      .where('adjustment', 'is', null)
      .where('end_day', '>=', p<CalendarDay>('from'))
      .where('start_day', '<=', p<CalendarDay>('to'))
      .orderBy('start_day')
      .orderBy('id'),
  );
}

/** Every validator entry of the requests, in order, by request. */
export async function validatorsOf(db: Executor, tenant: Tenant, requestIds: string[]): Promise<Map<string, ValidatorRow[]>> {
  const byRequest = new Map<string, ValidatorRow[]>(requestIds.map((id) => [id, []]));
  if (requestIds.length === 0) return byRequest;
  const rows = await db
    .selectFrom('absence_request_validators')
    .selectAll()
    .where('pbx_id', '=', tenant.pbxId)
    .where('absence_request_id', 'in', requestIds)
    .orderBy('absence_request_id')
    .orderBy('position')
    .execute();
  for (const row of rows) byRequest.get(row.absence_request_id)?.push(row);
  return byRequest;
}

export async function insertAbsenceRequests(db: Executor, rows: Insertable<AbsenceRequestTable>[]): Promise<void> {
  if (rows.length) await db.insertInto('absence_requests').values(rows).execute();
}

export async function insertValidators(db: Executor, rows: Insertable<AbsenceRequestValidatorTable>[]): Promise<void> {
  if (rows.length) await db.insertInto('absence_request_validators').values(rows).execute();
}

export async function updateAbsenceRequest(db: Executor, tenant: Tenant, id: string, changes: Updateable<AbsenceRequestTable>): Promise<void> {
  await db.updateTable('absence_requests').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

export async function decideValidators(
  db: Executor,
  tenant: Tenant,
  entryIds: string[],
  decision: { status: ValidatorStatus; decided_by_user_id: string | null; decided_at: string },
): Promise<void> {
  if (entryIds.length)
    await db.updateTable('absence_request_validators').set(decision).where('pbx_id', '=', tenant.pbxId).where('id', 'in', entryIds).execute();
}
