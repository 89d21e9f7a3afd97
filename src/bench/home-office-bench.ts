/**
 * The company home-office calendar at a realistic size: the workforce step's 2,000 employees
 * (a contract and a 40-hour work shift each), each with a year of ledger rows around today: about
 * two home-office days a week and a few absences (a week of leave and two days of illness every
 * ten weeks), in mixed statuses (accepted, pending, rejected, canceled, removed and being removed,
 * with their removal rows). Then `GET /{pbx_id}/calendar/home-office` over the current month, by an
 * employee of the company, measured against the bare server in alternating runs over one
 * connection each (the answer is megabytes; see CONNECTIONS). Plugged into
 * `npm run bench` as an optional step (OPTIONAL_STEP_MODULES in scenarios.ts).
 */
import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { DialectName } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { compareWithBaseline } from './compare.js';
import type { StepContext, StepFigures } from './scenarios.js';
import { round } from './stats.js';
import { inChunks, seedWorkforce, withWorkforceBench, WORKFORCE_BENCH_EMPLOYEES, type Seeded } from './workforce-bench.js';

const DAY_MS = 86_400_000;
const FULL_DAY = 28800;
/** Weeks of rows per employee, half of them before today. */
const WEEKS = 52;
const CONNECTIONS = 1;

type Row = Insertable<DB['absence_requests']>;

const epochOf = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayAt = (epoch: number) => new Date(epoch).toISOString().slice(0, 10);
const addDays = (day: string, days: number) => dayAt(epochOf(day) + days * DAY_MS);

/** The calendar month `today` falls in. */
export function monthOf(today: string): { from: string; to: string } {
  const [year, month] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  return { from: `${today.slice(0, 7)}-01`, to: dayAt(Date.UTC(year, month, 0)) };
}

/** Today in the demo PBX's time zone, as the server computes it. */
export const todayInLuxembourg = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Luxembourg' }).format(new Date());

export interface HomeOfficeSeeded extends Seeded {
  /** Ledger rows written (removal rows included). */
  rows: number;
  /** Home-office rows the month's calendar shows for the bench company's employees. */
  monthEntries: number;
  month: { from: string; to: string };
}

/** A deterministic 0-99 for employee i, week w, slot s (no Math.random: the same tenant every run). */
const dice = (i: number, w: number, s: number) => (i * 7919 + w * 104_729 + s * 1_299_709) % 100;

/**
 * The workforce step's organisation, plus a year of ledger rows per employee written straight into
 * absence_requests a chunk at a time (the calendar never reads validator entries, so none are
 * written). The demo user is given a contract with the bench company when it is linked to an
 * employee of another, so it reads the bench company's calendar.
 */
export async function seedHomeOffice(
  db: Kysely<DB>,
  dialect: DialectName,
  pbxId: string,
  userId: string,
  today: string,
  employees = WORKFORCE_BENCH_EMPLOYEES,
): Promise<HomeOfficeSeeded> {
  const seeded = await seedWorkforce(db, dialect, pbxId, userId, employees);
  const now = new Date().toISOString();
  if (!seeded.employeeIds.includes(seeded.ownEmployeeId)) {
    await db
      .insertInto('employee_contracts')
      .values({
        id: randomUUID(),
        pbx_id: pbxId,
        employee_id: seeded.ownEmployeeId,
        company_id: seeded.companyId,
        department_id: seeded.departmentId,
        participation: 0.2,
        contract_start: '2024-01-01',
        contract_end: null,
        main_company: 0,
        compensatory_balance: 0,
        ho_balance: null,
        title: 'Bench reader',
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  const month = monthOf(today);
  // Mondays from 26 weeks before today's week.
  const thisMonday = addDays(today, -((new Date(epochOf(today)).getUTCDay() + 6) % 7));
  const firstMonday = addDays(thisMonday, -7 * (WEEKS / 2));
  const requests: Row[] = [];
  const removals: Row[] = [];
  let monthEntries = 0;

  const row = (employeeId: string, type: Row['type'], start: string, end: string, status: Row['status'], groupId: string | null): Row => {
    const requested: Record<string, number> = {};
    for (let day = start; day <= end; day = addDays(day, 1)) requested[day] = FULL_DAY;
    const days = Object.keys(requested).length;
    return {
      id: randomUUID(),
      pbx_id: pbxId,
      employee_id: employeeId,
      company_id: seeded.companyId,
      contract_id: null,
      type,
      sub_type: null,
      status,
      start_day: start,
      end_day: end,
      starts_half_day: 0,
      ends_half_day: 0,
      start_time: null,
      end_time: null,
      requested_time: JSON.stringify(requested),
      working_days: days,
      total_seconds: days * FULL_DAY,
      workshift_seconds_per_day: FULL_DAY,
      comment: null,
      request_group_id: groupId,
      removal_of_id: null,
      balance_debited: status === 'approved' || status === 'pending_removal' || status === 'removed' ? days : null,
      created_by_user_id: null,
      decided_at: status === 'pending' ? null : now,
      created_at: now,
      updated_at: now,
    };
  };
  /** The removal row of a request taken back (approved) or being taken back (pending). */
  const removalOf = (request: Row, status: 'approved' | 'pending'): Row => ({
    ...request,
    id: randomUUID(),
    sub_type: 'removal',
    status,
    removal_of_id: request.id,
    balance_debited: null,
    decided_at: status === 'approved' ? now : null,
  });

  seeded.employeeIds.forEach((employeeId, i) => {
    for (let w = 0; w < WEEKS; w++) {
      const monday = addDays(firstMonday, 7 * w);
      const past = monday < today;
      const week = (w + i) % 10;
      if (week === 0) {
        // A week of paid leave.
        requests.push(row(employeeId, 'absence', monday, addDays(monday, 4), past || dice(i, w, 0) < 60 ? 'approved' : 'pending', null));
        continue;
      }
      const ill = week === 5 ? [1, 2] : [];
      if (ill.length) requests.push(row(employeeId, 'illness', addDays(monday, 1), addDays(monday, 2), 'approved', null));
      // Two home-office days a week, spread over the weekdays by employee (none on a day of illness).
      const groupId = randomUUID();
      for (const [slot, weekday] of [i % 5, (i + 2) % 5].entries()) {
        if (ill.includes(weekday)) continue;
        const day = addDays(monday, weekday);
        const roll = dice(i, w, slot + 1);
        const status: Row['status'] = past
          ? roll < 80
            ? 'approved'
            : roll < 88
              ? 'rejected'
              : roll < 94
                ? 'cancelled'
                : roll < 97
                  ? 'removed'
                  : 'pending_removal'
          : roll < 45
            ? 'approved'
            : roll < 90
              ? 'pending'
              : roll < 95
                ? 'cancelled'
                : 'pending_removal';
        const request = row(employeeId, 'home_office', day, day, status, groupId);
        requests.push(request);
        if (status === 'removed') removals.push(removalOf(request, 'approved'));
        if (status === 'pending_removal') removals.push(removalOf(request, 'pending'));
        if ((status === 'approved' || status === 'pending' || status === 'pending_removal') && day >= month.from && day <= month.to) monthEntries++;
      }
    }
  });
  // Requests first: removal rows name them.
  await inChunks(requests, (chunk) => db.insertInto('absence_requests').values(chunk).execute());
  await inChunks(removals, (chunk) => db.insertInto('absence_requests').values(chunk).execute());
  await (dialect === 'postgres' ? sql`analyze absence_requests, employee_contracts` : sql`analyze`).execute(db);
  return { ...seeded, rows: requests.length + removals.length, monthEntries, month };
}

/** The benchmark step: its own server and bare server, 2,000 employees with a year of rows, the month's calendar against the bare server. */
export async function benchHomeOfficeCalendar(ctx: StepContext): Promise<StepFigures> {
  const seed = (db: Kysely<DB>, dialect: DialectName, pbxId: string, memberId: string) => seedHomeOffice(db, dialect, pbxId, memberId, todayInLuxembourg());
  return withWorkforceBench(ctx, seed, async ({ server, baselineUrl, tenant, member, seeded, seedSeconds }) => {
    ctx.log(
      `seeded ${WORKFORCE_BENCH_EMPLOYEES.toLocaleString('en')} employees and ${seeded.rows.toLocaleString('en')} ledger rows in ${seedSeconds.toFixed(1)} s`,
    );

    const userToken = await server.login(member.email, member.password);
    const label = `GET /{pbx_id}/calendar/home-office, ${seeded.month.from}..${seeded.month.to} (an employee, ${WORKFORCE_BENCH_EMPLOYEES} colleagues)`;
    // One connection, for the bare server too: a month of 2,000 employees is some 12,000 entries and
    // 7 MB, most of a second of the server's one core each, so 10 connections would see no answer
    // within a 5-second run; with one, each run counts answers one after another.
    const request = {
      url: `${server.apiBase}/${tenant.pbx_id}/calendar/home-office?filter[from]=${seeded.month.from}&filter[to]=${seeded.month.to}`,
      headers: { authorization: `Bearer ${userToken}` },
      connections: CONNECTIONS,
    };
    const response = await fetch(request.url, { headers: request.headers });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${label}: HTTP ${response.status} ${body.slice(0, 500)}`);
    const entries = (JSON.parse(body) as unknown[]).length;
    // The demo's own home-office rows may add a few; fewer than the bench's means the calendar lost rows.
    if (entries < seeded.monthEntries) throw new Error(`${label}: ${entries} entries, expected at least ${seeded.monthEntries}`);
    ctx.log(`the month's calendar: ${entries.toLocaleString('en')} entries, ${Math.round(Buffer.byteLength(body) / 1024).toLocaleString('en')} KB`);

    const comparison = await compareWithBaseline(
      { url: baselineUrl, connections: CONNECTIONS },
      [{ id: 'home_office_calendar_month', label, request }],
      ctx.config,
      (line) => ctx.log(line),
    );
    const figures: StepFigures = {
      employees: WORKFORCE_BENCH_EMPLOYEES,
      connections: CONNECTIONS,
      ledger_rows: seeded.rows,
      seed_seconds: round(seedSeconds),
      month_entries: entries,
      month_body_kb: Math.round(Buffer.byteLength(body) / 1024),
      bare_rps: Math.round(comparison.baseline.rps_median),
    };
    for (const scenario of comparison.scenarios) {
      figures[`${scenario.id}_rps`] = round(scenario.rps_median);
      figures[`${scenario.id}_ratio`] = round(scenario.ratio.median, 6);
      figures[`${scenario.id}_ratio_min`] = round(scenario.ratio.min, 6);
      figures[`${scenario.id}_ratio_max`] = round(scenario.ratio.max, 6);
      // The JSON line keeps three decimals, which round a ratio this small to 0: its inverse reads better.
      figures[`${scenario.id}_bare_per_request`] = Math.round(1 / scenario.ratio.median);
      figures[`${scenario.id}_p50_ms`] = round(scenario.p50_ms);
      figures[`${scenario.id}_p99_ms`] = round(scenario.p99_ms);
    }
    return figures;
  });
}
