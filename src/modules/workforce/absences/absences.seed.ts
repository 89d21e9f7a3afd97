/**
 * The demo's absence and home-office requests, made through the services the API uses (so the
 * amounts, validators and balances are exactly what the API would make): for every employee with a
 * contract running today, a year of requests in every status, and home-office days over the
 * coming month. Dates are relative to the seed clock's today in the PBX's time zone and picked
 * from the employee's own work calendar (full working days, never a holiday nor a day another
 * request holds), so the seed succeeds whatever the date.
 */
import type { Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import type { DemoSeeder } from '../../../platform/demo-seeder.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { AbsenceMovesService } from './absence-requests/absence-moves.service.js';
import { findAbsenceRequest, validatorsOf } from './absence-requests/absence-requests.queries.js';
import type { CreateAbsenceInput } from './absence-requests/absence-requests.schemas.js';
import { AbsenceRequestsService } from './absence-requests/absence-requests.service.js';
import { validatorPlan } from './absence-requests/approvals.js';
import { currentMainContractId, workCalendar, type WorkDay } from '../time/index.js';
import { HomeOfficeRequestsService } from './home-office/home-office-requests.service.js';
import { addDays, todayIn, yearOf, type CalendarDay } from '../shared/index.js';
import { demoOrganisationOf } from '../organisation/index.js';

/** How far past its anchor a request may move to find free working days. */
const SEARCH_DAYS = 56;
/** The coming weeks of home office. */
const HOME_OFFICE_WEEKS = 4;

/** What happens to a request once asked. */
type Outcome = 'accepted' | 'rejected' | 'canceled' | 'pending' | 'pending_removal' | 'removed' | 'half_approved';

interface Plan {
  /** Where to look for the period (the first free full working day on or after it starts the request). */
  anchor: CalendarDay;
  /** Calendar days the period spans (5 = a working week); its end is the last working day of the span. */
  span: number;
  body: Omit<CreateAbsenceInput, 'start' | 'end'>;
  outcome: Outcome;
  /** Only for an employee whose request two validators decide. */
  twoValidators?: boolean;
}

/** The requests of one employee: last year's second half by the calendar, this year around today. */
function plans(today: CalendarDay): Array<{ key: string } & Plan> {
  const last = yearOf(today) - 1;
  return [
    { key: 'day_off', anchor: `${last}-07-14`, span: 1, body: { type: 'legal', comment: 'A long weekend' }, outcome: 'accepted' },
    { key: 'summer', anchor: `${last}-08-04`, span: 5, body: { type: 'legal', comment: 'Summer holidays' }, outcome: 'accepted' },
    { key: 'special', anchor: `${last}-09-15`, span: 1, body: { type: 'special', comment: 'Moving house' }, outcome: 'accepted' },
    {
      key: 'half_day',
      anchor: `${last}-10-06`,
      span: 1,
      body: { type: 'legal', starts_half_day: true, comment: 'Afternoon off: parents\u2019 evening' },
      outcome: 'accepted',
    },
    { key: 'canceled', anchor: `${last}-10-20`, span: 5, body: { type: 'legal', comment: 'Autumn break (plans changed)' }, outcome: 'canceled' },
    { key: 'illness', anchor: `${last}-11-10`, span: 3, body: { type: 'illness', comment: 'Flu' }, outcome: 'accepted' },
    { key: 'removed', anchor: `${last}-11-24`, span: 2, body: { type: 'legal', comment: 'Long weekend, taken back' }, outcome: 'removed' },
    { key: 'rejected', anchor: `${last}-12-08`, span: 3, body: { type: 'legal', comment: 'Before the year-end closing' }, outcome: 'rejected' },
    // Christmas week and the days to New Year: the Christmas Eve half day and the public holidays take their share.
    { key: 'christmas', anchor: `${last}-12-22`, span: 10, body: { type: 'legal', comment: 'Christmas with the family' }, outcome: 'accepted' },
    { key: 'recent_illness', anchor: addDays(today, -40), span: 2, body: { type: 'illness', comment: 'Cold' }, outcome: 'accepted' },
    { key: 'pending', anchor: addDays(today, 14), span: 3, body: { type: 'legal', comment: 'A few days off' }, outcome: 'pending' },
    {
      key: 'half_approved',
      anchor: addDays(today, 22),
      span: 1,
      body: { type: 'special', comment: 'Wedding of my sister' },
      outcome: 'half_approved',
      twoValidators: true,
    },
    { key: 'pending_removal', anchor: addDays(today, 35), span: 2, body: { type: 'legal', comment: 'Trip, maybe not' }, outcome: 'pending_removal' },
  ];
}

/** An employee's days, and the ones already given to a request (kept apart so no two requests share a working day). */
class Diary {
  private readonly used = new Set<CalendarDay>();
  constructor(private readonly days: WorkDay[]) {}

  private static isFull(day: WorkDay): boolean {
    return day.shiftSeconds > 0 && day.scheduledSeconds === day.shiftSeconds;
  }

  /**
   * `span` calendar days from the first free full working day on or after `anchor`, every working
   * day among them free; undefined when none starts within SEARCH_DAYS.
   */
  period(anchor: CalendarDay, span: number): { start: CalendarDay; end: CalendarDay } | undefined {
    const limit = addDays(anchor, SEARCH_DAYS);
    for (let i = this.days.findIndex((day) => day.day >= anchor); i >= 0 && i < this.days.length && this.days[i].day <= limit; i++) {
      const first = this.days[i];
      if (!Diary.isFull(first) || this.used.has(first.day)) continue;
      const spanned = this.days.slice(i, i + span);
      const working = spanned.filter((day) => day.scheduledSeconds > 0);
      if (working.some((day) => this.used.has(day.day))) continue;
      for (const day of spanned) this.used.add(day.day);
      return { start: first.day, end: working[working.length - 1].day };
    }
    return undefined;
  }

  /** Up to `count` free full working days of `from`..`to`, preferring those from `offset` days in, taken. */
  takeDays(from: CalendarDay, to: CalendarDay, count: number, offset: number): CalendarDay[] {
    const free = this.days.filter((day) => day.day >= from && day.day <= to && Diary.isFull(day) && !this.used.has(day.day)).map((day) => day.day);
    const preferred = addDays(from, offset);
    const chosen = [...free.filter((day) => day >= preferred), ...free.filter((day) => day < preferred)].slice(0, count).sort();
    for (const day of chosen) this.used.add(day);
    return chosen;
  }
}

interface Person {
  id: string;
  /** The employee's own active user, if any, and that user acting. */
  userId: string | undefined;
  user: Principal | undefined;
}

async function peopleOf(ctx: AppContext, tenant: Tenant, today: CalendarDay): Promise<Person[]> {
  const [{ employees }, users] = await Promise.all([
    demoOrganisationOf(ctx.db, tenant),
    ctx.db
      .selectFrom('users')
      .select(['id', 'role', 'employee_id'])
      .where('pbx_id', '=', tenant.pbxId)
      .where('deleted_at', 'is', null)
      .where('status', '=', 'active')
      .where('employee_id', 'is not', null)
      .execute(),
  ]);
  const people: Person[] = [];
  for (const employee of employees) {
    if (!(await currentMainContractId(ctx.db, tenant, employee.id, today))) continue;
    const user = users.find((row) => row.employee_id === employee.id);
    people.push({
      id: employee.id,
      userId: user?.id,
      user: user && { kind: 'user', id: 'demo-seed', userId: user.id, pbxId: tenant.pbxId, role: user.role, tokenId: 'demo-seed', rateLimit: null },
    });
  }
  return people;
}

/** Absence and home-office requests of every employee with a current contract, in every status. */
export const seedAbsences: DemoSeeder = async (ctx, demo) => {
  const tenant: Tenant = { pbxId: demo.pbxId };
  const pbx = await ctx.db.selectFrom('pbxes').select('timezone').where('id', '=', demo.pbxId).executeTakeFirstOrThrow();
  const today = todayIn(pbx.timezone, ctx.clock);
  const people = await peopleOf(ctx, tenant, today);
  if (people.length === 0)
    throw new Error('seedAbsences: the tenant has no employee with a current contract; the workforce seeds (organisation, then time) must run first');

  const admin: Principal = { kind: 'user', id: 'demo-seed', userId: demo.admin.id, pbxId: demo.pbxId, role: 'admin', tokenId: 'demo-seed', rateLimit: null };
  const pbxKey: Principal = { kind: 'pbx', id: 'demo-seed', pbxId: demo.pbxId, rateLimit: null };
  const byId = new Map(people.map((person) => [person.id, person]));
  const adminEmployee = people.find((person) => person.userId === demo.admin.id)?.id;
  const absences = new AbsenceRequestsService(ctx);
  const homeOffice = new HomeOfficeRequestsService(ctx);
  const moves = new AbsenceMovesService(ctx);

  /** The employee asks: through its own user, else the demo admin on its behalf. */
  const asker = (person: Person) => person.user ?? admin;
  /** Who decides an entry: the validator through its user; "any administrator" the demo admin, or the PBX key for the admin's own requests. */
  const decider = (validator: string | null, owner: string): Principal => {
    const user = validator ? byId.get(validator)?.user : undefined;
    if (user) return user;
    return owner === adminEmployee ? pbxKey : admin;
  };
  /** The actor the absence policy reads for a principal (absence-request.policy.ts). */
  const actorOf = async (principal: Principal) => (await absences.caller(tenant, principal)).actor;
  /** Each validator in order decides its entry (`firstOnly`: only the first one does). */
  const decide = async (id: string, decision: 'approve' | 'reject', firstOnly = false) => {
    for (;;) {
      const row = await findAbsenceRequest(ctx.db, tenant, id);
      const entry = (await validatorsOf(ctx.db, tenant, [id])).get(id)?.find((candidate) => candidate.status === 'pending');
      if (!row || row.status !== 'pending' || !entry) return;
      const principal = decider(entry.employee_id, row.employee_id);
      await moves[decision](tenant, principal, await actorOf(principal), id);
      if (firstOnly || decision === 'reject') return;
    }
  };

  /** One employee's requests; answers the ids a sample may name. */
  const seedPerson = async (person: Person, index: number) => {
    const days = await workCalendar(ctx.db, tenant, person.id, `${yearOf(today) - 1}-07-01`, addDays(today, 7 * HOME_OFFICE_WEEKS + SEARCH_DAYS + 60));
    const diary = new Diary(days);
    const ids = new Map<string, string>();
    for (const plan of plans(today)) {
      const period = diary.period(plan.anchor, plan.span);
      if (!period) continue;
      if (plan.twoValidators) {
        const first = days.find((day) => day.day === period.start);
        if ((await validatorPlan(ctx.db, tenant, person.id, first?.contract?.department_id)).length < 2) continue;
      }
      const actor = await actorOf(asker(person));
      const { id } = await absences.create(tenant, asker(person), actor, person.id, { ...plan.body, start: period.start, end: period.end });
      ids.set(plan.key, id);
      if (plan.outcome === 'canceled') await moves.cancel(tenant, actor, id);
      else if (plan.outcome === 'rejected') await decide(id, 'reject');
      else if (plan.outcome === 'half_approved') await decide(id, 'approve', true);
      else if (plan.outcome !== 'pending') {
        await decide(id, 'approve');
        if (plan.outcome === 'pending_removal' || plan.outcome === 'removed') {
          const removal = await moves.requestRemoval(tenant, asker(person), actor, id);
          if (plan.outcome === 'removed') await decide(removal.id, 'approve');
        }
      }
    }

    // Home office over the coming weeks: one or two days a week on the employee's own weekdays; the first two approved, the rest pending.
    const dates: CalendarDay[] = [];
    for (let week = 0; week < HOME_OFFICE_WEEKS; week++) {
      const from = addDays(today, 1 + 7 * week);
      dates.push(...diary.takeDays(from, addDays(from, 6), 1 + (index % 2), index % 5));
    }
    if (dates.length) {
      const rows = await homeOffice.request(tenant, asker(person), person.id, { dates, comment: 'Working from home' });
      for (const row of rows.slice(0, 2)) await decide(row.id, 'approve');
      ids.set('home_office', rows[0].id);
    }
    return ids;
  };

  // Each employee's rows are its own (its days, its contract's balances): the employees are seeded side by side.
  const seeded = await Promise.all(people.map(seedPerson));
  // The samples are the first demo user's (Luc's, Jonas's): a part-timer whose requests the demo admin decides.
  const sample =
    seeded[
      Math.max(
        0,
        people.findIndex((person) => person.userId === demo.users[1]?.id),
      )
    ];
  return { absence_request: sample.get('summer'), pending_absence: sample.get('pending'), home_office_request: sample.get('home_office') };
};
