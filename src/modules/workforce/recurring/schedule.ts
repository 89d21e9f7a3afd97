/**
 * When recurring transactions run: at the start of a month or a year in the tenant's time zone
 * (local midnight of the 1st, whatever its UTC offset that day), kept as a UTC instant.
 */
import { DateTime } from 'luxon';
import type { CalendarDay } from '../shared/days.js';
import type { RecurringFrequency } from '../recurring.tables.js';

const UNIT = { monthly_start: 'month', yearly_start: 'year' } as const;

function inZone(instant: Date | string, zone: string): DateTime {
  const local = (typeof instant === 'string' ? DateTime.fromISO(instant) : DateTime.fromJSDate(instant)).setZone(zone);
  if (!local.isValid) throw new Error(`invalid instant ${String(instant)} or time zone ${zone}`);
  return local;
}

/**
 * The first start of a month (or year) in `zone` strictly after `after`, as an ISO UTC instant
 * written as `Date.prototype.toISOString` writes it (`2026-03-31T22:00:00.000Z`).
 * A period's own start counts as inside it, so the start that follows a due run is the next one.
 */
export function nextPeriodStart(after: Date | string, frequency: RecurringFrequency, zone: string): string {
  const unit = UNIT[frequency];
  const next = inZone(after, zone)
    .startOf(unit)
    .plus({ [`${unit}s`]: 1 })
    .toUTC()
    .toISO();
  if (next === null) throw new Error(`no next ${unit} start after ${String(after)} in ${zone}`);
  return next;
}

/** The calendar day an instant falls on in `zone`: the day a run books. */
export function localDay(instant: Date | string, zone: string): CalendarDay {
  const day = inZone(instant, zone).toISODate();
  if (day === null) throw new Error(`no day for ${String(instant)} in ${zone}`);
  return day;
}
