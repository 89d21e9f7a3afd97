/**
 * The days off of a company over a range: the public holidays of its country and region, from
 * date-holidays' data (regional ones through the region, e.g. Bavaria's `BY`), plus the holidays
 * the tenant adds itself, for every company or for this one. Required work time and the public
 * holiday calendar both read them here.
 */
import type Holidays from 'date-holidays';
import type { Kysely } from 'kysely';
import type { Executor } from '../../../../db/database.js';
import type { DB } from '../../../../db/schema.js';
import { reusableQuery } from '../../../../db/reusable-query.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { addDays, dayOfYear, yearOf, type CalendarDay } from '../../shared/index.js';
import type { CompanyRow } from '../../organisation/index.js';

export interface DayOff {
  date: CalendarDay;
  name: string;
  half_day: boolean;
  source: 'public' | 'tenant';
}

/** The part of a company the calendar needs; null for a contract that names no company. */
export type CalendarCompany = Pick<CompanyRow, 'id' | 'country_cc' | 'region'>;

const DAY_MS = 24 * 3600 * 1000;
/**
 * date-holidays and its data take about half a second to load: it is loaded on the first calendar
 * asked for, not with the app (every server start and CLI command would pay for it).
 */
let library: Promise<typeof Holidays> | undefined;
const loadLibrary = () => (library ??= import('date-holidays').then((module) => module.default));
/** Constructing a date-holidays instance parses the country's rules: one per country and region. */
const calendars = new Map<string, Holidays>();
/** A year's list costs milliseconds to compute: kept per country, region and year (a bounded set). */
const years = new Map<string, DayOff[]>();
const MAX_CACHED_YEARS = 2000;

async function calendarOf(country: string, region: string | null): Promise<Holidays> {
  const key = `${country}|${region ?? ''}`;
  let calendar = calendars.get(key);
  if (!calendar) {
    const Library = await loadLibrary();
    calendar = region ? new Library(country, region, { types: ['public'] }) : new Library(country, { types: ['public'] });
    calendars.set(key, calendar);
  }
  return calendar;
}

/**
 * The public holidays of one year. A holiday of several days gives each of them; one that starts
 * after midnight (some countries' afternoons off) is a half day.
 */
async function publicHolidaysOfYear(country: string, region: string | null, year: number): Promise<DayOff[]> {
  const key = `${country}|${region ?? ''}|${year}`;
  const known = years.get(key);
  if (known) return known;
  const days: DayOff[] = [];
  for (const holiday of (await calendarOf(country, region)).getHolidays(year)) {
    if (holiday.type !== 'public') continue;
    const first = holiday.date.slice(0, 10);
    const partial = holiday.date.slice(11, 19) !== '00:00:00';
    const length = Math.max(1, Math.round((holiday.end.getTime() - holiday.start.getTime()) / DAY_MS));
    for (let i = 0; i < length; i++) days.push({ date: addDays(first, i), name: holiday.name, half_day: partial && i === 0, source: 'public' });
  }
  if (years.size >= MAX_CACHED_YEARS) years.delete(years.keys().next().value as string);
  years.set(key, days);
  return days;
}

/** Public holidays of a country (and region, or none) from `from` through `to`. */
export async function publicHolidays(country: string, region: string | null, from: CalendarDay, to: CalendarDay): Promise<DayOff[]> {
  const days: DayOff[] = [];
  for (let year = yearOf(from); year <= yearOf(to); year++)
    for (const day of await publicHolidaysOfYear(country.toUpperCase(), region ? region.toUpperCase() : null, year))
      if (day.date >= from && day.date <= to) days.push(day);
  return days;
}

/** A row of the tenant's own holidays as the calendars read it. */
export interface TenantHolidayRow {
  company_id: string | null;
  date: CalendarDay;
  name: string;
  half_day: number;
  recurring: number;
}

/** The tenant's live holidays that may fall within `from`..`to` (every recurring one, the others by date). */
function tenantHolidayRows(db: Executor, tenant: Tenant, from: CalendarDay, to: CalendarDay) {
  return db
    .selectFrom('tenant_holidays')
    .select(['company_id', 'date', 'name', 'half_day', 'recurring'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('recurring', '=', 1), eb.and([eb('date', '>=', from), eb('date', '<=', to)])]))
    .where('date', '<=', to);
}

/** The days of `rows` that apply to a company (company_id null: those for every company) from `from` through `to`. */
function tenantDaysOf(rows: readonly TenantHolidayRow[], companyId: string | null, from: CalendarDay, to: CalendarDay): DayOff[] {
  const days: DayOff[] = [];
  for (const row of rows) {
    if (row.company_id !== null && row.company_id !== companyId) continue;
    const dates = row.recurring === 1 ? recurrences(row.date, from, to) : [row.date];
    for (const date of dates) days.push({ date, name: row.name, half_day: row.half_day === 1, source: 'tenant' });
  }
  return days;
}

/**
 * The tenant's own holidays for a company (company_id null: those for every company) from `from`
 * through `to`. A recurring one comes back on its month and day every year from its own year on
 * (29 February only in leap years).
 */
export async function tenantHolidays(db: Kysely<DB>, tenant: Tenant, companyId: string | null, from: CalendarDay, to: CalendarDay): Promise<DayOff[]> {
  const rows = companyId === null ? await holidaysOfEveryCompany(db, tenant.pbxId, from, to) : await holidaysOfCompany(db, tenant.pbxId, companyId, from, to);
  return tenantDaysOf(rows, companyId, from, to);
}

/** The tenant's holidays for every company (read on every simulated time condition): compiled once per database. */
const holidaysOfEveryCompany = reusableQuery((db, pbxId: string, from: string, to: string) =>
  tenantHolidayRows(db, { pbxId }, from, to).where('company_id', 'is', null),
);

/** The tenant's holidays for one company and for every company: compiled once per database. */
const holidaysOfCompany = reusableQuery((db, pbxId: string, companyId: string, from: string, to: string) =>
  tenantHolidayRows(db, { pbxId }, from, to).where((eb) => eb.or([eb('company_id', 'is', null), eb('company_id', '=', companyId)])),
);

/**
 * The tenant's live holidays that may fall within `from`..`to`, as a query another statement joins
 * (aliased): the work calendar reads them beside each contract, matched on its company or on none.
 */
export function tenantHolidaysWithin(db: Executor, tenant: Tenant, from: CalendarDay, to: CalendarDay) {
  return tenantHolidayRows(db, tenant, from, to).select('id');
}

function recurrences(first: CalendarDay, from: CalendarDay, to: CalendarDay): CalendarDay[] {
  const dates: CalendarDay[] = [];
  const monthDay = first.slice(5);
  for (let year = Math.max(yearOf(from), yearOf(first)); year <= yearOf(to); year++) {
    const date = dayOfYear(year, monthDay);
    if (date && date >= from && date <= to && date >= first) dates.push(date);
  }
  return dates;
}

/** Public days before tenant days on the same date. */
const byDateThenSource = (a: DayOff, b: DayOff) =>
  a.date === b.date ? (a.source === b.source ? 0 : a.source === 'public' ? -1 : 1) : a.date < b.date ? -1 : 1;

/** Every day off of a company from `from` through `to`, by date (public before tenant on the same day). */
export async function companyDaysOff(db: Kysely<DB>, tenant: Tenant, company: CalendarCompany | null, from: CalendarDay, to: CalendarDay): Promise<DayOff[]> {
  const [publicDays, ownDays] = await Promise.all([
    company ? publicHolidays(company.country_cc, company.region, from, to) : [],
    tenantHolidays(db, tenant, company?.id ?? null, from, to),
  ]);
  return [...publicDays, ...ownDays].sort(byDateThenSource);
}

/** `companyDaysOff`, the tenant's rows already read (those for this company and for every company among them). */
export async function companyDaysOffFrom(
  company: CalendarCompany | null,
  rows: readonly TenantHolidayRow[],
  from: CalendarDay,
  to: CalendarDay,
): Promise<DayOff[]> {
  const publicDays = company ? await publicHolidays(company.country_cc, company.region, from, to) : [];
  return [...publicDays, ...tenantDaysOf(rows, company?.id ?? null, from, to)].sort(byDateThenSource);
}

/** Day -> whether it is off for the whole day (`full`) or half of it, a full day off winning over a half. */
export function daysOffByDate(days: DayOff[]): Map<CalendarDay, 'full' | 'half'> {
  const map = new Map<CalendarDay, 'full' | 'half'>();
  for (const day of days) if (map.get(day.date) !== 'full') map.set(day.date, day.half_day ? 'half' : 'full');
  return map;
}
