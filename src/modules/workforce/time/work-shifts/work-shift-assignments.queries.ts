import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../../db/paging.js';
import { trashedScope, type TrashedFilter } from '../../../../db/soft-delete.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { CalendarDay } from '../../shared/index.js';
import type { WorkShiftAssignmentTable, WorkShiftTable } from '../time.tables.js';
import type { Executor } from '../../../../db/database.js';
import { reusableQuery } from '../../../../db/reusable-query.js';

export type AssignmentRow = Selectable<WorkShiftAssignmentTable>;

export interface AssignmentFilters {
  /** Assignments valid on some day from `from` through `to` (either bound may be absent). */
  from?: CalendarDay;
  to?: CalendarDay;
  trashed?: TrashedFilter;
}

/** What selects an employee's assignments: the tenant, the employee, and each filter that is set. */
interface AssignmentScope {
  pbxId: string;
  employeeId: string;
  from?: CalendarDay;
  to?: CalendarDay;
  trashed?: TrashedFilter;
}

function assignmentsOf(db: Executor, scope: AssignmentScope) {
  let query = trashedScope(
    db.selectFrom('work_shift_assignments').where('pbx_id', '=', scope.pbxId).where('employee_id', '=', scope.employeeId),
    scope.trashed,
  );
  const { from, to } = scope;
  if (from) query = query.where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>=', from)]));
  if (to) query = query.where('valid_from', '<=', to);
  return query;
}

const assignmentPage = pagedQuery({ scoped: assignmentsOf, columns: (query) => query.selectAll(), choices: ['trashed'] });

export function listAssignments(db: Kysely<DB>, tenant: Tenant, employeeId: string, filters: AssignmentFilters, sort: SortTerm[], page: PageRequest) {
  return assignmentPage(db, { pbxId: tenant.pbxId, employeeId, ...filters }, sort, page);
}

/** Live assignments of an employee valid on some day of `from`..`to`, in order. */
export function assignmentsOverlapping(db: Executor, tenant: Tenant, employeeId: string, from: CalendarDay, to: CalendarDay | null): Promise<AssignmentRow[]> {
  return assignmentsOf(db, { pbxId: tenant.pbxId, employeeId, from, to: to ?? undefined })
    .selectAll()
    .orderBy('valid_from')
    .orderBy('id')
    .execute();
}

/** A work shift's seconds per weekday, as the work calendar reads them beside an assignment. */
export type ShiftWeek = Pick<Selectable<WorkShiftTable>, 'id' | 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday'>;

/** The statement of `assignmentsWithShifts`, compiled once per database (every work calendar reads it). */
const assignmentsWithShiftRows = reusableQuery((db, pbxId: string, employeeId: string, from: string, to: string) =>
  db
    .selectFrom('work_shift_assignments as a')
    .leftJoin('work_shifts as s', (join) => join.onRef('s.id', '=', 'a.work_shift_id').on('s.pbx_id', '=', pbxId))
    .selectAll('a')
    .select([
      's.id as shift_id',
      's.monday as shift_monday',
      's.tuesday as shift_tuesday',
      's.wednesday as shift_wednesday',
      's.thursday as shift_thursday',
      's.friday as shift_friday',
      's.saturday as shift_saturday',
      's.sunday as shift_sunday',
    ])
    .where('a.pbx_id', '=', pbxId)
    .where('a.employee_id', '=', employeeId)
    .where('a.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('a.valid_until', 'is', null), eb('a.valid_until', '>=', from)]))
    .where('a.valid_from', '<=', to)
    .orderBy('a.valid_from')
    .orderBy('a.id'),
);

/**
 * `assignmentsOverlapping` with each assignment's work shift (deleted shifts included, as
 * `workShiftsByIds` finds them; undefined when the tenant has none by that id), in one statement.
 */
export async function assignmentsWithShifts(
  db: Executor,
  tenant: Tenant,
  employeeId: string,
  from: CalendarDay,
  to: CalendarDay,
): Promise<Array<{ assignment: AssignmentRow; shift: ShiftWeek | undefined }>> {
  const rows = await assignmentsWithShiftRows(db, tenant.pbxId, employeeId, from, to);
  return rows.map(({ shift_id, shift_monday, shift_tuesday, shift_wednesday, shift_thursday, shift_friday, shift_saturday, shift_sunday, ...assignment }) => ({
    assignment,
    shift:
      shift_id === null
        ? undefined
        : {
            id: shift_id,
            monday: shift_monday as number,
            tuesday: shift_tuesday as number,
            wednesday: shift_wednesday as number,
            thursday: shift_thursday as number,
            friday: shift_friday as number,
            saturday: shift_saturday as number,
            sunday: shift_sunday as number,
          },
  }));
}

export function findAssignment(db: Executor, tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<AssignmentRow | undefined> {
  return trashedScope(db.selectFrom('work_shift_assignments').selectAll().where('id', '=', id).where('pbx_id', '=', tenant.pbxId), trashed).executeTakeFirst();
}

export async function insertAssignment(db: Executor, row: Insertable<WorkShiftAssignmentTable>): Promise<void> {
  await db.insertInto('work_shift_assignments').values(row).execute();
}

export async function updateAssignment(db: Executor, tenant: Tenant, id: string, changes: Updateable<WorkShiftAssignmentTable>): Promise<void> {
  await db.updateTable('work_shift_assignments').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
