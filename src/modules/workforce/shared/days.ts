/**
 * Calendar days (`YYYY-MM-DD`) of the workforce. A tenant's today depends on its time zone and is
 * luxon's to compute. Calendar days themselves are zone-less: they are counted in UTC, where every
 * day has exactly 86,400 seconds, so `Date.UTC` arithmetic on them is exact (and a hundred of them
 * cost microseconds, where parsing each with luxon cost milliseconds a request).
 */
import { DateTime } from 'luxon';
import type { Clock } from '../../../platform/clock.js';
import type { CalendarDay } from '../../../db/columns.js';

export type { CalendarDay };

const DAY_MS = 86_400_000;

/** Milliseconds of the day's midnight UTC (the day is a valid `YYYY-MM-DD`, as validated input and stored days are). */
function epochOf(day: CalendarDay): number {
  return Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
}

const dayAt = (epoch: number): CalendarDay => new Date(epoch).toISOString().slice(0, 10);

/** Per zone, the day last asked and the instants it spans there ([start, end)): most asks fall within it. */
const lastDayIn = new Map<string, { day: CalendarDay; start: number; end: number }>();
const ZONES_KEPT = 1_000;

/**
 * The calendar day it is now in `zone` (an IANA time zone, the PBX's). Luxon's zone arithmetic
 * (a few per cent of a workforce read) runs once per zone and day: until the clock leaves the
 * day's span in the zone (either way), the day is answered from it.
 */
export function todayIn(zone: string, clock: Clock): CalendarDay {
  const ms = clock.nowMs();
  const known = lastDayIn.get(zone);
  if (known && ms >= known.start && ms < known.end) return known.day;
  const now = DateTime.fromMillis(ms, { zone });
  const today = now.isValid ? now.toISODate() : null;
  if (today === null) throw new Error(`unknown time zone ${zone}`);
  if (lastDayIn.size >= ZONES_KEPT) lastDayIn.clear();
  lastDayIn.set(zone, { day: today, start: now.startOf('day').toMillis(), end: now.endOf('day').toMillis() + 1 });
  return today;
}

export function addDays(day: CalendarDay, days: number): CalendarDay {
  return dayAt(epochOf(day) + days * DAY_MS);
}

/** Days from `from` to `to`, both counted (1 when they are the same day). */
export function daysInclusive(from: CalendarDay, to: CalendarDay): number {
  return Math.round((epochOf(to) - epochOf(from)) / DAY_MS) + 1;
}

/** `01` to `31`, by number. */
const TWO_DIGITS = Array.from({ length: 32 }, (_, n) => String(n).padStart(2, '0'));

const daysInMonth = (year: number, month: number) =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;

/**
 * Every day from `from` through `to`, in order, with its ISO weekday (1 = Monday … 7 = Sunday).
 * The first day is read once; each next one is counted on (day, month, year) rather than written
 * from its epoch (`toISOString` per day was a few per cent of a required work time request), the
 * same text for the four-digit years validated days have (any other year is written by `dayAt`).
 */
export function eachDay(from: CalendarDay, to: CalendarDay): Array<{ day: CalendarDay; weekday: number }> {
  const days: Array<{ day: CalendarDay; weekday: number }> = [];
  const first = epochOf(from);
  const last = epochOf(to);
  if (!(first <= last)) return days;
  const start = new Date(first);
  let year = start.getUTCFullYear();
  let month = start.getUTCMonth() + 1;
  let date = start.getUTCDate();
  let weekday = start.getUTCDay() || 7;
  for (let epoch = first; epoch <= last; epoch += DAY_MS) {
    const day = year >= 1000 && year <= 9999 ? `${year}-${TWO_DIGITS[month]}-${TWO_DIGITS[date]}` : dayAt(epoch);
    days.push({ day, weekday });
    weekday = weekday === 7 ? 1 : weekday + 1;
    if (++date > daysInMonth(year, month)) {
      date = 1;
      if (++month > 12) {
        month = 1;
        year++;
      }
    }
  }
  return days;
}

/** 1 (Monday) to 7 (Sunday). */
export function isoWeekday(day: CalendarDay): number {
  return new Date(epochOf(day)).getUTCDay() || 7;
}

/** The day `month-day` (`MM-DD`) of `year`, or null where it does not exist (29 February of a common year). */
export function dayOfYear(year: number, monthDay: string): CalendarDay | null {
  const day = `${String(year).padStart(4, '0')}-${monthDay}`;
  return dayAt(epochOf(day)) === day ? day : null;
}

export function yearOf(day: CalendarDay): number {
  return Number(day.slice(0, 4));
}

/**
 * A stored calendar day as the contract's date-time: midnight UTC, written the way the API writes
 * every other date-time (`Date.prototype.toISOString`, e.g. `2026-01-01T00:00:00.000Z`).
 */
export function dayAsDateTime(day: CalendarDay): string;
export function dayAsDateTime(day: CalendarDay | null): string | null;
export function dayAsDateTime(day: CalendarDay | null): string | null {
  return day === null ? null : new Date(epochOf(day)).toISOString();
}

/** The same day `months` later (luxon's month arithmetic: 31 August + 6 months = 28 or 29 February). */
export function addMonths(day: CalendarDay, months: number): CalendarDay {
  const later = DateTime.fromISO(day, { zone: 'utc' }).plus({ months }).toISODate();
  if (later === null) throw new Error(`invalid day ${day}`);
  return later;
}
