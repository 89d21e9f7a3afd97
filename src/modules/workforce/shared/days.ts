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

/** The calendar day it is now in `zone` (an IANA time zone, the PBX's). */
export function todayIn(zone: string, clock: Clock): CalendarDay {
  const now = DateTime.fromMillis(clock.nowMs(), { zone });
  const today = now.isValid ? now.toISODate() : null;
  if (today === null) throw new Error(`unknown time zone ${zone}`);
  return today;
}

export function addDays(day: CalendarDay, days: number): CalendarDay {
  return dayAt(epochOf(day) + days * DAY_MS);
}

/** Days from `from` to `to`, both counted (1 when they are the same day). */
export function daysInclusive(from: CalendarDay, to: CalendarDay): number {
  return Math.round((epochOf(to) - epochOf(from)) / DAY_MS) + 1;
}

/** Every day from `from` through `to`, in order, with its ISO weekday (1 = Monday … 7 = Sunday). */
export function eachDay(from: CalendarDay, to: CalendarDay): Array<{ day: CalendarDay; weekday: number }> {
  const days: Array<{ day: CalendarDay; weekday: number }> = [];
  for (let epoch = epochOf(from), last = epochOf(to); epoch <= last; epoch += DAY_MS) {
    days.push({ day: dayAt(epoch), weekday: new Date(epoch).getUTCDay() || 7 });
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
