import type { PageRequest, SortTerm } from '../../../../db/paging.js';
import type { Principal } from '../../../../platform/auth/principal.js';
import type { AppContext } from '../../../../platform/context.js';
import { Forbidden, NotFound, ValidationFailed } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { callerEmployee, employeeForRead, findEmployee, findSettings, managesEmployees, tenantToday } from '../../organisation/index.js';
import { daysInclusive, todayIn } from '../../shared/index.js';
import { workCalendar } from '../../time/index.js';
import { absenceAmounts, type AbsencePeriod } from './absence-amounts.js';
import { absenceActor, canListAcross, canSee, type AbsenceActor } from './absence-request.policy.js';
import {
  callerAndSettings,
  findLoadedAbsence,
  listAbsenceRequests,
  validatorsOf,
  type AbsenceFilters,
  type AbsenceRow,
  type LoadedAbsence,
} from './absence-requests.queries.js';
import {
  MAX_PERIOD_DAYS,
  type AbsenceListFilters,
  type AbsenceRequestView,
  type CreateAbsenceInput,
  type NextAvailabilityView,
} from './absence-requests.schemas.js';
import { presentAbsence, storedStatuses, storedType, storedTypes } from './absence-requests.presenter.js';
import { validatorPlan } from './approvals.js';
import { heldDays, insertLedgerRows, ledgerRow } from './ledger-writes.js';
import { nextAvailabilityFromToday, nextAvailabilityOf } from './next-availability.js';
import { publishAbsenceDecision } from './absence-requests.events.js';

export type { AbsenceRow, LoadedAbsence };

export const ABSENCE_NOT_FOUND = 'Absence request not found.';

/** The list filters as the queries take them. */
function filtersOf(query: AbsenceListFilters): AbsenceFilters {
  if (query.from && query.to && query.to < query.from)
    throw ValidationFailed.field('filter[to]', 'The filter[to] must be a date after or equal to filter[from].');
  return { statuses: storedStatuses(query.status), types: storedTypes(query.type), from: query.from, to: query.to, employeeId: query.employee_id };
}

/** What the absence routes resolve once per request (their `scope`): who asks, and the tenant's settings the answers need. */
export interface AbsenceCaller {
  actor: AbsenceActor;
  settings: PresentSettings;
}

/** The tenant's settings an answer reads: the half-day split (hours of half days) and the time zone (today, for next_availability). */
export interface PresentSettings {
  halfDaySplit: string;
  timezone: string;
}

/** Absence requests: asking, reading, listing (the moves live in absence-moves.service.ts). */
export class AbsenceRequestsService {
  constructor(private readonly ctx: AppContext) {}

  /** The actor and the tenant's settings, in one statement. */
  async caller(tenant: Tenant, principal: Principal): Promise<AbsenceCaller> {
    const { employeeId, ...settings } = await callerAndSettings(this.ctx.db, tenant, principal.kind === 'user' ? principal.userId : null);
    return { actor: absenceActor(principal, employeeId), settings };
  }

  /**
   * Rows as the contract shows them; `withNext` adds next_availability (a few queries a row). Rows
   * loaded with their validator entries and the settings when given are not read again.
   */
  async present(tenant: Tenant, rows: Array<AbsenceRow | LoadedAbsence>, withNext: boolean, given?: PresentSettings): Promise<AbsenceRequestView[]> {
    const unloaded = rows.filter((row) => !('validators' in row)).map((row) => row.id);
    const [validators, settings] = await Promise.all([validatorsOf(this.ctx.db, tenant, unloaded), given ?? this.settings(tenant)]);
    const split = settings.halfDaySplit;
    const today = withNext ? todayIn(settings.timezone, this.ctx.clock) : '';
    const next = withNext ? await Promise.all(rows.map((row) => nextAvailabilityOf(this.ctx.db, tenant, row, split, today))) : [];
    return rows.map((row, i) =>
      presentAbsence(row, 'validators' in row ? row.validators : (validators.get(row.id) ?? []), split, withNext ? next[i] : undefined),
    );
  }

  private async settings(tenant: Tenant): Promise<PresentSettings> {
    const row = await findSettings(this.ctx.db, tenant);
    if (!row) throw new Error(`no PBX ${tenant.pbxId}`);
    return { halfDaySplit: row.half_day_split, timezone: row.timezone };
  }

  /**
   * When an employee of the tenant is next at work, from the tenant's today. A team view: any
   * caller with an employee record, administrators and the PBX key may ask about anyone (403 for a
   * user without one); an unknown or deleted employee is 404.
   */
  async nextAvailability(tenant: Tenant, principal: Principal, employeeId: string): Promise<{ employee_id: string } & NextAvailabilityView> {
    if (!managesEmployees(principal) && !(await callerEmployee(this.ctx.db, tenant, principal))) throw new Forbidden('You have no employee record.');
    const employee = await findEmployee(this.ctx.db, tenant, employeeId);
    if (!employee) throw new NotFound('Employee not found.');
    const [settings, today] = await Promise.all([findSettings(this.ctx.db, tenant), tenantToday(this.ctx, tenant)]);
    const next = await nextAvailabilityFromToday(this.ctx.db, tenant, employee.id, settings?.half_day_split ?? '12:00', today);
    return { employee_id: employee.id, ...next };
  }

  async listForEmployee(tenant: Tenant, principal: Principal, employeeId: string, query: AbsenceListFilters, sort: SortTerm[], page: PageRequest) {
    const employee = await employeeForRead(this.ctx.db, tenant, principal, employeeId);
    return listAbsenceRequests(this.ctx.db, tenant, { ...filtersOf(query), employeeId: employee.id }, sort, page);
  }

  /** Administrators and the PBX key see every row; an employee its own and those it validates. */
  async list(tenant: Tenant, actor: AbsenceActor, query: AbsenceListFilters, sort: SortTerm[], page: PageRequest) {
    const filters = filtersOf(query);
    if (!canListAcross(actor)) throw new Forbidden('You have no employee record.');
    // Administrators and the PBX key decide every pending entry, so every pending row awaits them
    // (a caller without an employee record who may list across is one of them).
    if (actor.manages || actor.employeeId === null)
      return listAbsenceRequests(this.ctx.db, tenant, { ...filters, awaiting: query.awaiting_me ? { any: true } : undefined }, sort, page);
    return listAbsenceRequests(
      this.ctx.db,
      tenant,
      { ...filters, visibleTo: actor.employeeId, awaiting: query.awaiting_me ? { employeeId: actor.employeeId } : undefined },
      sort,
      page,
    );
  }

  /** A row the caller may see (absence-request.policy.ts), with its validator entries; else 404. */
  async get(tenant: Tenant, actor: AbsenceActor, id: string): Promise<LoadedAbsence> {
    const row = await findLoadedAbsence(this.ctx.db, tenant, id);
    if (!row || !canSee(actor, row)) throw new NotFound(ABSENCE_NOT_FOUND);
    return row;
  }

  /** A legal absence, illness, special leave or time off against overtime, for the employee itself (or by an administrator for anyone). */
  async create(tenant: Tenant, principal: Principal, actor: AbsenceActor, employeeId: string, body: CreateAbsenceInput): Promise<LoadedAbsence> {
    const employee = await employeeForRead(this.ctx.db, tenant, principal, employeeId);
    const asked = periodOfInput(body);
    const days = await workCalendar(this.ctx.db, tenant, employee.id, asked.start, asked.end);
    const amounts = absenceAmounts(days, asked);
    const working = Object.keys(amounts.requestedTime);
    const period = onWorkingDays(asked, working);
    if (working.length === 0)
      throw ValidationFailed.field('start', 'The period holds no working day of the employee (no contract or work shift, or only days off and holidays).');
    const contract = days.find((day) => day.day === working[0])?.contract;
    const plan = await validatorPlan(this.ctx.db, tenant, employee.id, contract?.department_id);
    const row = ledgerRow(tenant, employee.id, principal, this.ctx.clock.now().toISOString(), {
      type: storedType(body.type),
      period,
      amounts,
      contract,
      startTime: period.part === 'morning' ? null : body.start_time,
      endTime: period.part === 'afternoon' ? null : body.end_time,
      halfDayPart: period.part,
      comment: body.comment,
      plan,
    });
    await this.ctx.db.transaction().execute(async (trx) => {
      await insertLedgerRows(trx, this.ctx.dialect, tenant, employee.id, [{ row, plan }], (live) => {
        const held = heldDays(live, working);
        const [day, other] = [...held.entries()][0] ?? [];
        if (day && other)
          throw ValidationFailed.field(
            'start',
            `The period overlaps request ${other.id} (${other.type === 'home_office' ? 'home office' : 'absence'}, ${other.status}) on ${day}: cancel or take that one back first.`,
          );
      });
      await publishAbsenceDecision(this.ctx, trx, tenant, { ...row, removal_of_id: null }, plan, 'requested');
    });
    return this.get(tenant, actor, row.id);
  }
}

type HalfDayPart = 'morning' | 'afternoon' | null;

/**
 * Which half a single half day takes: the hour sent says it (only end_time: the morning, off until
 * then; only start_time: the afternoon, off from then; both: that window), else the flag
 * (starts_half_day alone: the afternoon; otherwise the morning).
 */
function singleDayPart(body: CreateAbsenceInput): HalfDayPart {
  if (body.start_time && body.end_time) return null;
  if (body.end_time) return 'morning';
  if (body.start_time) return 'afternoon';
  return body.starts_half_day === true && body.ends_half_day !== true ? 'afternoon' : 'morning';
}

/** The request's period: a single day with either half-day flag is one half day (both flags true). */
function periodOfInput(body: CreateAbsenceInput): AbsencePeriod & { part: HalfDayPart } {
  if (body.end < body.start) throw ValidationFailed.field('end', 'The end must be a date after or equal to start.');
  if (daysInclusive(body.start, body.end) > MAX_PERIOD_DAYS)
    throw ValidationFailed.field('end', `A request covers at most ${MAX_PERIOD_DAYS} days, both ends counted: split longer absences.`);
  let startsHalfDay = body.starts_half_day === true;
  let endsHalfDay = body.ends_half_day === true;
  const single = body.start === body.end && (startsHalfDay || endsHalfDay);
  if (single) startsHalfDay = endsHalfDay = true;
  if (body.start_time && !startsHalfDay) throw ValidationFailed.field('start_time', 'The start_time applies to a half-day start only (starts_half_day).');
  if (body.end_time && !endsHalfDay) throw ValidationFailed.field('end_time', 'The end_time applies to a half-day end only (ends_half_day).');
  if (body.start === body.end && body.start_time && body.end_time && body.end_time <= body.start_time)
    throw ValidationFailed.field('end_time', 'On a single half day, end_time must be after start_time.');
  return { start: body.start, end: body.end, startsHalfDay, endsHalfDay, part: single ? singleDayPart(body) : null };
}

/** A half-day flag on a first or last day that is not a working day takes nothing: it is dropped. */
function onWorkingDays(period: AbsencePeriod & { part: HalfDayPart }, working: string[]): AbsencePeriod & { part: HalfDayPart } {
  return { ...period, startsHalfDay: period.startsHalfDay && working.includes(period.start), endsHalfDay: period.endsHalfDay && working.includes(period.end) };
}
