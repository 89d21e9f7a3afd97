/**
 * Planning entries: an employee booked into whole slots of a schedule's day, and the week grid.
 * A booking is checked against the schedule (active, a listed weekday, on the slot grid within
 * the window), its pool (the contract's 422 for anyone outside it) and the person's other entries
 * in every live schedule of the tenant (never two at overlapping times), under the employee's
 * lock so two racing bookings cannot both pass.
 */
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../../../platform/context.js';
import { NotFound, ValidationFailed } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { nameOrderOf, lockEmployee, tenantToday, employeeNamesByIds } from '../../organisation/index.js';
import { planningStatusesByIds } from '../planning-statuses/planning-statuses.queries.js';
import { addDays, isoWeekday } from '../../shared/index.js';
import { checkBooking, slotsOf, windowOf } from './schedule-rules.js';
import {
  deleteEntry,
  entriesOfSchedule,
  findEntry,
  insertEntry,
  overlappingEntries,
  parseIds,
  updateEntry,
  type PlanningEntryRow,
  type ScheduleRow,
} from './schedules.queries.js';
import type { CreateEntryInput, PlanningEntryView, PlanningWeekView, UpdateEntryInput } from './schedules.schemas.js';
import { presentPlanningEntry } from './planning-entries.presenter.js';
import { checkStatusPair, SchedulesService } from './schedules.service.js';

export type { PlanningEntryRow };

const ENTRY_NOT_FOUND = 'Planning entry not found.';

export class PlanningEntriesService {
  private readonly schedules: SchedulesService;

  constructor(private readonly ctx: AppContext) {
    this.schedules = new SchedulesService(ctx);
  }

  async present(tenant: Tenant, rows: PlanningEntryRow[]): Promise<PlanningEntryView[]> {
    if (rows.length === 0) return [];
    const db = this.ctx.db;
    const [order, statuses, people] = await Promise.all([
      nameOrderOf(db, tenant),
      planningStatusesByIds(
        db,
        tenant,
        rows.flatMap((r) => [r.status_id, r.sub_status_id]),
      ),
      employeeNamesByIds(
        db,
        tenant,
        rows.map((r) => r.employee_id),
      ),
    ]);
    const personById = new Map(people.map((p) => [p.id, p]));
    return rows.map((row) => presentPlanningEntry(row, personById.get(row.employee_id), order, statuses));
  }

  async get(tenant: Tenant, scheduleId: string, entryId: string): Promise<PlanningEntryRow> {
    await this.schedules.get(tenant, scheduleId);
    const entry = await findEntry(this.ctx.db, tenant, scheduleId, entryId);
    if (!entry) throw new NotFound(ENTRY_NOT_FOUND);
    return entry;
  }

  async book(tenant: Tenant, scheduleId: string, body: CreateEntryInput): Promise<PlanningEntryRow> {
    const schedule = await this.schedules.get(tenant, scheduleId);
    if (schedule.is_active !== 1) throw ValidationFailed.field('scheduleId', 'The schedule is inactive: it takes no bookings.');
    const weekdays = JSON.parse(schedule.days_of_week) as number[];
    if (!weekdays.includes(isoWeekday(body.date)))
      throw ValidationFailed.field('date', `The schedule does not run on this weekday (daysOfWeek ${JSON.stringify(weekdays)}).`);
    const endTime = checkBooking(windowOf(schedule), body.startTime, body.endTime);
    const pool = await this.schedules.assignable(tenant, schedule);
    if (!pool.some((person) => person.id === body.employeeId)) throw ValidationFailed.field('employeeId', 'The employee is not one this schedule may assign.');
    const statusId = body.statusId === undefined ? schedule.status_id : body.statusId;
    const subStatusId = body.subStatusId === undefined ? (body.statusId === undefined ? schedule.sub_status_id : null) : body.subStatusId;
    await this.checkStatuses(tenant, schedule, statusId, subStatusId);

    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await this.ctx.db.transaction().execute(async (trx) => {
      await lockEmployee(trx, this.ctx.dialect, tenant, body.employeeId);
      const clash = (await overlappingEntries(trx, tenant, body.employeeId, body.date, body.startTime, endTime))[0];
      if (clash)
        throw ValidationFailed.field(
          'employeeId',
          `The employee is already booked from ${clash.start_time} to ${clash.end_time} that day (entry ${clash.id}).`,
        );
      await insertEntry(trx, {
        id,
        pbx_id: tenant.pbxId,
        schedule_id: schedule.id,
        employee_id: body.employeeId,
        day: body.date,
        start_time: body.startTime,
        end_time: endTime,
        status_id: statusId,
        sub_status_id: subStatusId,
        note: body.note ?? null,
        created_at: now,
        updated_at: now,
      });
    });
    return this.get(tenant, scheduleId, id);
  }

  async update(tenant: Tenant, scheduleId: string, entryId: string, body: UpdateEntryInput): Promise<PlanningEntryRow> {
    const schedule = await this.schedules.get(tenant, scheduleId);
    const entry = await this.get(tenant, scheduleId, entryId);
    const statusId = body.statusId === undefined ? entry.status_id : body.statusId;
    const subStatusId = body.subStatusId === undefined ? (body.statusId === undefined ? entry.sub_status_id : null) : body.subStatusId;
    if (body.statusId !== undefined || body.subStatusId !== undefined) await this.checkStatuses(tenant, schedule, statusId, subStatusId);
    await updateEntry(this.ctx.db, tenant, entryId, {
      status_id: statusId,
      sub_status_id: subStatusId,
      ...(body.note === undefined ? {} : { note: body.note }),
      updated_at: this.ctx.clock.now().toISOString(),
    });
    return this.get(tenant, scheduleId, entryId);
  }

  async unbook(tenant: Tenant, scheduleId: string, entryId: string): Promise<void> {
    await this.get(tenant, scheduleId, entryId);
    await deleteEntry(this.ctx.db, tenant, entryId);
  }

  /** The ISO week holding `anyDay` (default the tenant's today): each day's slots with their entries. */
  async week(tenant: Tenant, scheduleId: string, anyDay: string | undefined): Promise<PlanningWeekView> {
    const schedule = await this.schedules.get(tenant, scheduleId);
    const day = anyDay ?? (await tenantToday(this.ctx, tenant));
    const weekStart = addDays(day, 1 - isoWeekday(day));
    const weekEnd = addDays(weekStart, 6);
    const entries = await this.present(tenant, await entriesOfSchedule(this.ctx.db, tenant, schedule.id, weekStart, weekEnd));
    const weekdays = JSON.parse(schedule.days_of_week) as number[];
    const slots = slotsOf(windowOf(schedule));
    return {
      weekStart,
      weekEnd,
      isActive: schedule.is_active === 1,
      days: Array.from({ length: 7 }, (_, offset) => {
        const date = addDays(weekStart, offset);
        const ofDay = entries.filter((entry) => entry.date === date);
        const listed = weekdays.includes(offset + 1);
        // Unlisted days show no slots, but an entry booked before the schedule changed still shows in its own slot.
        const daySlots = listed
          ? slots
          : [...new Map(ofDay.map((e) => [`${e.startTime}-${e.endTime}`, { startTime: e.startTime, endTime: e.endTime }])).values()];
        return {
          date,
          isScheduled: listed && schedule.is_active === 1,
          slots: daySlots.map((slot) => ({ ...slot, entries: ofDay.filter((e) => e.startTime < slot.endTime && e.endTime > slot.startTime) })),
        };
      }),
    };
  }

  private async checkStatuses(tenant: Tenant, schedule: ScheduleRow, statusId: string | null, subStatusId: string | null): Promise<void> {
    await checkStatusPair(this.ctx, tenant, statusId, subStatusId, 'statusId', 'subStatusId');
    const allowed = parseIds(schedule.status_filters);
    if (statusId !== null && allowed.length > 0 && !allowed.includes(statusId))
      throw ValidationFailed.field('statusId', "The status is not one of the schedule's statusFilters.");
  }
}
