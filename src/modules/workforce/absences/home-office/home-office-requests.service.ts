/**
 * A home-office request: each date becomes its own pending home-office row of the ledger, all
 * sharing one `request_group_id`, each costing the employee's own day (28800 seconds on an 8 h
 * day). Every date is checked, and any refusal refuses the whole request with `invalid_dates`
 * (date -> reason and message): nothing is created.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../../../platform/auth/principal.js';
import type { AppContext } from '../../../../platform/context.js';
import { ValidationFailed } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { addMonths, type CalendarDay } from '../../shared/index.js';
import { employeeForRead, tenantToday } from '../../organisation/index.js';
import { workCalendar, type WorkDay } from '../../time/index.js';
import { absenceAmounts } from '../absence-requests/absence-amounts.js';
import { absenceRequestsByIds, LIVE_STATUSES, rowsOverlapping, type AbsenceRow, type AbsenceTableRow } from '../absence-requests/absence-requests.queries.js';
import { validatorPlan, type ValidatorPlan } from '../absence-requests/approvals.js';
import { heldDays, insertLedgerRows, ledgerRow } from '../absence-requests/ledger-writes.js';
import { publishAbsenceDecision } from '../absence-requests/absence-requests.events.js';
import { homeOfficeCalendarJson, type CalendarFilters } from './home-office-calendar.js';
import { HOME_OFFICE_MONTHS_AHEAD, type HomeOfficeRequestInput, type InvalidDateReason } from './home-office.schemas.js';

type Refusals = Map<CalendarDay, { reason: InvalidDateReason; message: string }>;

function refuse(refusals: Refusals): ValidationFailed {
  const messages = [...refusals.values()].map((refusal) => refusal.message);
  return new ValidationFailed(
    { dates: messages },
    `Some dates cannot be booked for home office: ${messages[0]}${messages.length > 1 ? ` (and ${messages.length - 1} more)` : ''}`,
    {
      invalid_dates: Object.fromEntries(refusals),
    },
  );
}

/** Refusals that need no other row: duplicates, the window (`today`..`last`), and the employee's own calendar. */
function calendarRefusals(dates: CalendarDay[], today: CalendarDay, last: CalendarDay, days: Map<CalendarDay, WorkDay>): Refusals {
  const refusals: Refusals = new Map();
  const seen = new Set<CalendarDay>();
  for (const date of dates) {
    if (seen.has(date)) refusals.set(date, { reason: 'duplicate', message: `${date} is sent more than once.` });
    seen.add(date);
    if (refusals.has(date)) continue;
    const day = days.get(date);
    if (date < today) refusals.set(date, { reason: 'in_past', message: `${date} is in the past (today is ${today}).` });
    else if (date > last)
      refusals.set(date, { reason: 'beyond_six_months', message: `${date} is more than ${HOME_OFFICE_MONTHS_AHEAD} months ahead (the last day is ${last}).` });
    else if (day?.holiday === 'full') refusals.set(date, { reason: 'public_holiday', message: `${date} is a holiday of the employee\u2019s company.` });
    else if (!day?.contract) refusals.set(date, { reason: 'no_contract', message: `${date} is outside every contract of the employee.` });
    else if (day.scheduledSeconds <= 0) refusals.set(date, { reason: 'not_a_working_day', message: `${date} is not a working day of the employee.` });
  }
  return refusals;
}

/** Refusals from the employee's live rows, checked under its lock. */
function bookedRefusals(live: AbsenceTableRow[], dates: CalendarDay[]): Refusals {
  const refusals: Refusals = new Map();
  for (const [date, row] of heldDays(live, dates)) {
    refusals.set(
      date,
      row.type === 'home_office'
        ? { reason: 'already_booked', message: `${date} is already booked as home office (${row.id}).` }
        : { reason: 'overlaps_absence', message: `${date} overlaps absence request ${row.id}.` },
    );
  }
  return refusals;
}

export class HomeOfficeRequestsService {
  constructor(private readonly ctx: AppContext) {}

  /** The company home-office calendar the caller may read (home-office-calendar.ts), as of the tenant's today: the JSON text of its entries. */
  calendar(tenant: Tenant, principal: Principal, filters: CalendarFilters): Promise<string> {
    return homeOfficeCalendarJson(this.ctx.db, this.ctx.clock, tenant, principal, filters);
  }

  /** The created rows, in date order. */
  async request(tenant: Tenant, principal: Principal, employeeId: string, body: HomeOfficeRequestInput): Promise<AbsenceRow[]> {
    const employee = await employeeForRead(this.ctx.db, tenant, principal, employeeId);
    const today = await tenantToday(this.ctx, tenant);
    const last = addMonths(today, HOME_OFFICE_MONTHS_AHEAD);
    const sorted = [...new Set(body.dates)].sort();
    // The calendar of the window's dates only: a date years away is refused, never computed up to.
    const inWindow = sorted.filter((date) => date >= today && date <= last);
    const calendar = inWindow.length ? await workCalendar(this.ctx.db, tenant, employee.id, inWindow[0], inWindow[inWindow.length - 1]) : [];
    const days = new Map(calendar.map((day) => [day.day, day]));
    const early = calendarRefusals(body.dates, today, last, days);
    if (early.size) {
      // One answer names every refused date: the booked ones among the others too (nothing is written, so no lock).
      const others = inWindow.filter((date) => !early.has(date));
      if (others.length) {
        const live = await rowsOverlapping(this.ctx.db, tenant, employee.id, others[0], others[others.length - 1], LIVE_STATUSES);
        for (const [date, refusal] of bookedRefusals(live, others)) early.set(date, refusal);
      }
      throw refuse(early);
    }

    const plans = new Map<string | null, ValidatorPlan>();
    const groupId = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    const rows: Array<{ row: ReturnType<typeof ledgerRow>; plan: ValidatorPlan }> = [];
    for (const date of sorted) {
      const day = days.get(date) as WorkDay;
      const departmentId = day.contract?.department_id ?? null;
      let plan = plans.get(departmentId);
      if (!plan) plans.set(departmentId, (plan = await validatorPlan(this.ctx.db, tenant, employee.id, departmentId)));
      const period = { start: date, end: date, startsHalfDay: false, endsHalfDay: false };
      const row = ledgerRow(tenant, employee.id, principal, now, {
        type: 'home_office',
        period,
        amounts: absenceAmounts([day], period),
        contract: day.contract,
        comment: body.comment,
        requestGroupId: groupId,
        plan,
      });
      rows.push({ row, plan });
    }
    await this.ctx.db.transaction().execute(async (trx) => {
      await insertLedgerRows(trx, this.ctx.dialect, tenant, employee.id, rows, (live) => {
        const booked = bookedRefusals(live, sorted);
        if (booked.size) throw refuse(booked);
      });
      // Each day is a request of its own, decided on its own: one event each.
      for (const { row, plan } of rows) await publishAbsenceDecision(this.ctx, trx, tenant, { ...row, removal_of_id: null }, plan, 'requested');
    });
    return absenceRequestsByIds(
      this.ctx.db,
      tenant,
      rows.map(({ row }) => row.id),
    );
  }
}
