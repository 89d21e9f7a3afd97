/**
 * When recurring transactions run: at the start of a month or a year in the tenant's time zone
 * (local midnight of the 1st, whatever its UTC offset that day), kept as a UTC instant.
 */
import { DateTime } from 'luxon';
import type { CalendarDay } from '../../shared/index.js';
import type { RecurringFrequency } from '../absences.tables.js';

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

/** The days a contract runs, both ends included; `end` null = open-ended. */
export interface ContractSpan {
  contract_start: CalendarDay;
  contract_end: CalendarDay | null;
}

const covers = (contract: ContractSpan, day: CalendarDay) => contract.contract_start <= day && (contract.contract_end === null || day <= contract.contract_end);

/** The first start of a month (or year) in `zone` on or after local midnight of `day`. */
function periodStartOnOrAfter(day: CalendarDay, frequency: RecurringFrequency, zone: string): string {
  const midnight = DateTime.fromISO(day, { zone }).startOf('day');
  if (!midnight.isValid) throw new Error(`invalid day ${day} or time zone ${zone}`);
  if (!midnight.startOf(UNIT[frequency]).equals(midnight)) return nextPeriodStart(midnight.toJSDate(), frequency, zone);
  const instant = midnight.toUTC().toISO();
  if (instant === null) throw new Error(`no instant for ${day} in ${zone}`);
  return instant;
}

/**
 * A template's next run from `after` on: the first period start after it whose day a contract of
 * the employee covers, so a run never comes before the contract's first day (nor in a gap
 * between two contracts); null when no contract covers any period start from then on.
 */
export function firstRunOnContract(after: Date | string, frequency: RecurringFrequency, zone: string, contracts: readonly ContractSpan[]): string | null {
  let candidate = nextPeriodStart(after, frequency, zone);
  for (;;) {
    const day = localDay(candidate, zone);
    if (contracts.some((contract) => covers(contract, day))) return candidate;
    // The next contract to start after that day; each turn moves past one, so this ends.
    const later = contracts.map((contract) => contract.contract_start).filter((start) => start > day);
    if (later.length === 0) return null;
    candidate = periodStartOnOrAfter(
      later.reduce((min, start) => (start < min ? start : min)),
      frequency,
      zone,
    );
  }
}
