/**
 * Calendar days (`YYYY-MM-DD`) of the workforce: a tenant's today in its time zone, and day
 * arithmetic, all through luxon (calendar days are zone-less, so they are computed in UTC, where
 * every day has 24 hours).
 */
import { DateTime } from 'luxon';
import type { Clock } from '../../../platform/clock.js';
import type { CalendarDay } from '../workforce.tables.js';

export type { CalendarDay };

const day = (value: CalendarDay) => DateTime.fromISO(value, { zone: 'utc' });

function isoDate(value: DateTime): CalendarDay {
  const text = value.toISODate();
  if (text === null) throw new Error(`not a calendar day: ${value.invalidExplanation ?? 'invalid'}`);
  return text;
}

/** The calendar day it is now in `zone` (an IANA time zone, the PBX's). */
export function todayIn(zone: string, clock: Clock): CalendarDay {
  const now = DateTime.fromMillis(clock.nowMs(), { zone });
  if (!now.isValid) throw new Error(`unknown time zone ${zone}`);
  return isoDate(now);
}

export function addDays(value: CalendarDay, days: number): CalendarDay {
  return isoDate(day(value).plus({ days }));
}

/** Days from `from` to `to`, both counted (1 when they are the same day). */
export function daysInclusive(from: CalendarDay, to: CalendarDay): number {
  return Math.round(day(to).diff(day(from), 'days').days) + 1;
}

/** Every day from `from` through `to`, in order. */
export function eachDay(from: CalendarDay, to: CalendarDay): CalendarDay[] {
  const days: CalendarDay[] = [];
  for (let current = day(from), last = day(to); current <= last; current = current.plus({ days: 1 })) days.push(isoDate(current));
  return days;
}

/** 1 (Monday) to 7 (Sunday). */
export function isoWeekday(value: CalendarDay): number {
  return day(value).weekday;
}

/** The day `month-day` of `year`, or null where it does not exist (29 February of a common year). */
export function dayOfYear(year: number, monthDay: string): CalendarDay | null {
  const candidate = DateTime.fromISO(`${String(year).padStart(4, '0')}-${monthDay}`, { zone: 'utc' });
  return candidate.isValid ? isoDate(candidate) : null;
}

export function yearOf(value: CalendarDay): number {
  return day(value).year;
}

/**
 * A stored calendar day as the contract's date-time: midnight UTC, written the way the API writes
 * every other date-time (`Date.prototype.toISOString`, e.g. `2026-01-01T00:00:00.000Z`).
 */
export function dayAsDateTime(value: CalendarDay): string;
export function dayAsDateTime(value: CalendarDay | null): string | null;
export function dayAsDateTime(value: CalendarDay | null): string | null {
  return value === null ? null : day(value).toJSDate().toISOString();
}
