/**
 * What a period away costs, always against the employee's own day: the seconds taken on each
 * working day (a day its work calendar schedules), the working days that makes (each day counted
 * as its share of a full day of the employee's shift, so 4 h of a 4 h part-timer's day is 1 and
 * 4 h of an 8 h day 0.5), and the day details the contract shows. Pure: tests compare it with a
 * plain day-by-day model.
 */
import type { CalendarDay } from '../../shared/index.js';
import type { WorkDay } from '../../time/index.js';

/** A day falls short of a full day, and reads as a half day, when it misses more than this (the contract's tolerance). */
export const HALF_DAY_TOLERANCE_SECONDS = 900;

export interface AbsencePeriod {
  start: CalendarDay;
  end: CalendarDay;
  /** Only the second half of the first day is taken. */
  startsHalfDay: boolean;
  /** Only the first half of the last day is taken. On a single day, either flag makes it one half day. */
  endsHalfDay: boolean;
}

export interface AbsenceAmounts {
  /** Working day -> seconds taken; only working days appear. */
  requestedTime: Record<CalendarDay, number>;
  workingDays: number;
  totalSeconds: number;
  /** Seconds of a full day of the employee's shift on the first working day (0 = unknown: no working day). */
  workshiftSecondsPerDay: number;
}

/** Working days are counted to four decimals, so sums of halves and thirds stay exact to read. */
const roundDays = (days: number) => Math.round(days * 10_000) / 10_000;

function isHalf(period: AbsencePeriod, day: CalendarDay): boolean {
  return (day === period.start && period.startsHalfDay) || (day === period.end && period.endsHalfDay);
}

/** `days` are the employee's days of the period (others are ignored). */
export function absenceAmounts(days: readonly WorkDay[], period: AbsencePeriod): AbsenceAmounts {
  const requestedTime: Record<CalendarDay, number> = {};
  let workingDays = 0;
  let totalSeconds = 0;
  let workshiftSecondsPerDay = 0;
  for (const day of days) {
    if (day.day < period.start || day.day > period.end || day.scheduledSeconds <= 0 || day.shiftSeconds <= 0) continue;
    // Half of the shift's day, but never more than is scheduled (a half-day holiday already took the other half).
    const seconds = isHalf(period, day.day) ? Math.min(day.scheduledSeconds, Math.floor(day.shiftSeconds / 2)) : day.scheduledSeconds;
    // Half of a 1-second shift is nothing: no time taken, so not a working day of the request.
    if (seconds <= 0) continue;
    if (workshiftSecondsPerDay === 0) workshiftSecondsPerDay = day.shiftSeconds;
    requestedTime[day.day] = seconds;
    totalSeconds += seconds;
    workingDays += seconds / day.shiftSeconds;
  }
  return { requestedTime, workingDays: roundDays(workingDays), totalSeconds, workshiftSecondsPerDay };
}

export interface WorkingDayDetail {
  date: CalendarDay;
  seconds: number;
  is_half_day: boolean;
  start_time: string | null;
  end_time: string | null;
}

/** A stored row's amounts as the contract's `working_day_details`: ascending, working days only. */
export function workingDayDetails(
  requestedTime: Record<CalendarDay, number>,
  workshiftSecondsPerDay: number,
  period: AbsencePeriod,
  times: { startTime: string | null; endTime: string | null },
): WorkingDayDetail[] {
  return Object.keys(requestedTime)
    .sort()
    .map((date) => {
      const seconds = requestedTime[date];
      return {
        date,
        seconds,
        is_half_day: workshiftSecondsPerDay > 0 && seconds < workshiftSecondsPerDay - HALF_DAY_TOLERANCE_SECONDS,
        start_time: date === period.start && period.startsHalfDay ? times.startTime : null,
        end_time: date === period.end && period.endsHalfDay ? times.endTime : null,
      };
    });
}
