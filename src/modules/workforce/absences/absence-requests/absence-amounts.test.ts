/**
 * absenceAmounts() and workingDayDetails() against a plain day-by-day model: random calendars
 * (weekly patterns with part-time and odd seconds, full and half holidays, days outside a
 * contract or before an assignment) are described by a few numbers, turned into the WorkDays the
 * work calendar would give, and the model reads the description itself, one day at a time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContractTableRow } from '../../time/contracts/contracts.queries.js';
import type { WorkDay } from '../../time/required-work-time/work-calendar.js';
import { absenceAmounts, HALF_DAY_TOLERANCE_SECONDS, workingDayDetails, type AbsencePeriod } from './absence-amounts.js';

const FIRST_DAY = '2026-01-01';
const DAY_MS = 86_400_000;

/** The day `offset` days after 1 January 2026, and its ISO weekday (1 Monday … 7 Sunday), with plain Date arithmetic. */
function dayAt(offset: number): { day: string; weekday: number } {
  const date = new Date(Date.parse(`${FIRST_DAY}T00:00:00Z`) + offset * DAY_MS);
  return { day: date.toISOString().slice(0, 10), weekday: date.getUTCDay() || 7 };
}

/** A calendar as a handful of facts: the weekly pattern, holidays by offset, and which days a contract and an assignment cover. */
interface CalendarSpec {
  /** Seconds of a full day, Monday first. */
  week: number[];
  length: number;
  holidays: Record<number, 'full' | 'half'>;
  /** Offsets outside every contract. */
  outsideContract: Set<number>;
  /** Offsets under contract but without a work-shift assignment. */
  unassigned: Set<number>;
}

const CONTRACT = { id: 'contract', company_id: 'company', department_id: null } as unknown as ContractTableRow;

/** The WorkDays the work calendar gives for the spec (the shape absenceAmounts reads). */
function workDaysOf(spec: CalendarSpec): WorkDay[] {
  return Array.from({ length: spec.length }, (_, offset) => {
    const { day, weekday } = dayAt(offset);
    if (spec.outsideContract.has(offset)) return { day, weekday, contract: undefined, shiftSeconds: 0, scheduledSeconds: 0, holiday: undefined };
    const shiftSeconds = spec.unassigned.has(offset) ? 0 : spec.week[weekday - 1];
    const holiday = spec.holidays[offset];
    const scheduledSeconds = holiday === 'full' ? 0 : holiday === 'half' ? Math.floor(shiftSeconds / 2) : shiftSeconds;
    return { day, weekday, contract: CONTRACT, shiftSeconds, scheduledSeconds, holiday };
  });
}

/** Seconds of a full day: the usual ones, a 4 h part-timer's, odd ones, a few minutes, and days off. */
const daySeconds = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.constantFrom(28800, 14400, 21600, 30600) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 43200 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 2400 }) },
);

const calendarSpec: fc.Arbitrary<CalendarSpec> = fc.integer({ min: 1, max: 45 }).chain((length) =>
  fc.record({
    week: fc.array(daySeconds, { minLength: 7, maxLength: 7 }),
    length: fc.constant(length),
    holidays: fc.dictionary(fc.integer({ min: 0, max: length - 1 }).map(String), fc.constantFrom<'full' | 'half'>('full', 'half'), {
      maxKeys: Math.ceil(length / 3),
    }),
    outsideContract: fc.uniqueArray(fc.integer({ min: 0, max: length - 1 }), { maxLength: Math.ceil(length / 4) }).map((offsets) => new Set(offsets)),
    unassigned: fc.uniqueArray(fc.integer({ min: 0, max: length - 1 }), { maxLength: Math.ceil(length / 6) }).map((offsets) => new Set(offsets)),
  }),
);

/** A calendar and a period inside it, with random half-day flags. */
const calendarAndPeriod = calendarSpec.chain((spec) =>
  fc
    .tuple(fc.integer({ min: 0, max: spec.length - 1 }), fc.integer({ min: 0, max: spec.length - 1 }), fc.boolean(), fc.boolean())
    .map(([a, b, startsHalfDay, endsHalfDay]) => {
      const [from, to] = a <= b ? [a, b] : [b, a];
      const period: AbsencePeriod = { start: dayAt(from).day, end: dayAt(to).day, startsHalfDay, endsHalfDay };
      return { spec, period, from, to };
    }),
);

interface ModelDay {
  date: string;
  seconds: number;
  /** The shift's full day that weekday. */
  full: number;
}

/**
 * The model: walk the period's days; a day counts when a contract and an assignment cover it, its
 * weekday has seconds and no full holiday takes it. A half-day holiday leaves half the day (rounded
 * down). A half-day side takes half the shift's day, never more than is left. Each day counts as
 * its share of the shift's full day.
 */
function model(spec: CalendarSpec, period: AbsencePeriod) {
  const days: ModelDay[] = [];
  for (let offset = 0; offset < spec.length; offset++) {
    const { day, weekday } = dayAt(offset);
    if (day < period.start || day > period.end) continue;
    if (spec.outsideContract.has(offset) || spec.unassigned.has(offset)) continue;
    const full = spec.week[weekday - 1];
    if (full === 0 || spec.holidays[offset] === 'full') continue;
    const left = spec.holidays[offset] === 'half' ? Math.floor(full / 2) : full;
    if (left === 0) continue;
    const halfSide = (day === period.start && period.startsHalfDay) || (day === period.end && period.endsHalfDay);
    days.push({ date: day, seconds: halfSide ? Math.min(left, Math.floor(full / 2)) : left, full });
  }
  // A 1-second shift's half day is 0 seconds: nothing taken, so no working day either.
  const taken = days.filter((d) => d.seconds > 0);
  return {
    days: taken,
    requestedTime: Object.fromEntries(taken.map((d) => [d.date, d.seconds])),
    totalSeconds: taken.reduce((sum, d) => sum + d.seconds, 0),
    workingDays: taken.reduce((sum, d) => sum + d.seconds / d.full, 0),
    workshiftSecondsPerDay: taken[0]?.full ?? 0,
  };
}

const expectDaysClose = (actual: number, expected: number) => {
  // Counted to four decimals.
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(0.00005 + 1e-9);
  expect(Math.abs(actual * 10_000 - Math.round(actual * 10_000))).toBeLessThan(1e-6);
};

describe('absenceAmounts: property tests against a day-by-day model', () => {
  it('takes each working day of the period as the model does (seconds, working days, the first working day’s shift)', () => {
    fc.assert(
      fc.property(calendarAndPeriod, ({ spec, period }) => {
        const actual = absenceAmounts(workDaysOf(spec), period);
        const expected = model(spec, period);
        expect(actual.requestedTime).toEqual(expected.requestedTime);
        expect(actual.totalSeconds).toBe(expected.totalSeconds);
        expectDaysClose(actual.workingDays, expected.workingDays);
        expect(actual.workshiftSecondsPerDay).toBe(expected.workshiftSecondsPerDay);
      }),
      { numRuns: 500 },
    );
  });

  it('only working days inside the period appear, each with more than 0 seconds and at most its scheduled time', () => {
    fc.assert(
      fc.property(calendarAndPeriod, ({ spec, period }) => {
        const days = workDaysOf(spec);
        const actual = absenceAmounts(days, period);
        for (const [date, seconds] of Object.entries(actual.requestedTime)) {
          const day = days.find((d) => d.day === date);
          expect(day).toBeDefined();
          expect(date >= period.start && date <= period.end).toBe(true);
          expect(seconds).toBeGreaterThan(0);
          expect(seconds).toBeLessThanOrEqual(day?.scheduledSeconds ?? 0);
        }
        // A working day counts at most 1 (never more than the shift's day).
        expect(actual.workingDays).toBeLessThanOrEqual(Object.keys(actual.requestedTime).length + 1e-9);
      }),
      { numRuns: 300 },
    );
  });

  it('is additive: a period without half days costs what its two halves cost', () => {
    fc.assert(
      fc.property(
        calendarAndPeriod.chain((input) => fc.integer({ min: input.from, max: input.to }).map((cut) => ({ ...input, cut }))),
        ({ spec, from, to, cut }) => {
          const days = workDaysOf(spec);
          const whole = absenceAmounts(days, { start: dayAt(from).day, end: dayAt(to).day, startsHalfDay: false, endsHalfDay: false });
          const left = absenceAmounts(days, { start: dayAt(from).day, end: dayAt(cut).day, startsHalfDay: false, endsHalfDay: false });
          const right =
            cut < to
              ? absenceAmounts(days, { start: dayAt(cut + 1).day, end: dayAt(to).day, startsHalfDay: false, endsHalfDay: false })
              : { requestedTime: {}, totalSeconds: 0, workingDays: 0 };
          expect(whole.requestedTime).toEqual({ ...left.requestedTime, ...right.requestedTime });
          expect(whole.totalSeconds).toBe(left.totalSeconds + right.totalSeconds);
          expect(Math.abs(whole.workingDays - (left.workingDays + right.workingDays))).toBeLessThanOrEqual(0.0001 + 1e-9);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('half-day flags only ever take time away, and only on the first and last days', () => {
    fc.assert(
      fc.property(calendarAndPeriod, ({ spec, period }) => {
        const days = workDaysOf(spec);
        const flagged = absenceAmounts(days, period);
        const whole = absenceAmounts(days, { ...period, startsHalfDay: false, endsHalfDay: false });
        expect(flagged.totalSeconds).toBeLessThanOrEqual(whole.totalSeconds);
        for (const [date, seconds] of Object.entries(whole.requestedTime)) {
          if (date !== period.start && date !== period.end) expect(flagged.requestedTime[date], date).toBe(seconds);
          else expect(flagged.requestedTime[date] ?? 0).toBeLessThanOrEqual(seconds);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('ignores days outside the period it is given', () => {
    fc.assert(
      fc.property(calendarAndPeriod, ({ spec, period }) => {
        const days = workDaysOf(spec);
        const inside = days.filter((day) => day.day >= period.start && day.day <= period.end);
        expect(absenceAmounts(days, period)).toEqual(absenceAmounts(inside, period));
      }),
      { numRuns: 200 },
    );
  });
});

describe('absenceAmounts: examples', () => {
  const FULL_TIME = [28800, 28800, 28800, 28800, 28800, 0, 0];
  const spec = (week: number[], extra: Partial<CalendarSpec> = {}): CalendarSpec => ({
    week,
    length: 40,
    holidays: {},
    outsideContract: new Set(),
    unassigned: new Set(),
    ...extra,
  });
  const period = (start: string, end: string, startsHalfDay = false, endsHalfDay = false): AbsencePeriod => ({ start, end, startsHalfDay, endsHalfDay });

  it('a full-timer’s week off: five days of 28800, the weekend left out', () => {
    // 5-11 January 2026 is Monday to Sunday.
    const amounts = absenceAmounts(workDaysOf(spec(FULL_TIME)), period('2026-01-05', '2026-01-11'));
    expect(amounts).toEqual({
      requestedTime: { '2026-01-05': 28800, '2026-01-06': 28800, '2026-01-07': 28800, '2026-01-08': 28800, '2026-01-09': 28800 },
      workingDays: 5,
      totalSeconds: 144000,
      workshiftSecondsPerDay: 28800,
    });
  });

  it('a 4 h part-timer’s day is one working day; half of an 8 h day is 0.5', () => {
    const partTimer = workDaysOf(spec([14400, 14400, 14400, 14400, 14400, 0, 0]));
    expect(absenceAmounts(partTimer, period('2026-01-05', '2026-01-05'))).toEqual({
      requestedTime: { '2026-01-05': 14400 },
      workingDays: 1,
      totalSeconds: 14400,
      workshiftSecondsPerDay: 14400,
    });
    expect(absenceAmounts(workDaysOf(spec(FULL_TIME)), period('2026-01-05', '2026-01-05', true, true))).toEqual({
      requestedTime: { '2026-01-05': 14400 },
      workingDays: 0.5,
      totalSeconds: 14400,
      workshiftSecondsPerDay: 28800,
    });
  });

  it('half-day sides on a longer period, a half-day holiday inside it, and a full holiday left out', () => {
    // Offsets 4.. are 5 January (Monday) on; 7 January (offset 6) a half holiday, 8 January (offset 7) a full one.
    const days = workDaysOf(spec(FULL_TIME, { holidays: { 6: 'half', 7: 'full' } }));
    const amounts = absenceAmounts(days, period('2026-01-05', '2026-01-09', true, true));
    expect(amounts.requestedTime).toEqual({ '2026-01-05': 14400, '2026-01-06': 28800, '2026-01-07': 14400, '2026-01-09': 14400 });
    expect(amounts.workingDays).toBe(2.5);
    expect(amounts.totalSeconds).toBe(72000);
  });

  it('a half day on a half-day holiday takes what is left, not more', () => {
    const days = workDaysOf(spec(FULL_TIME, { holidays: { 4: 'half' } }));
    expect(absenceAmounts(days, period('2026-01-05', '2026-01-05', true, true)).requestedTime).toEqual({ '2026-01-05': 14400 });
    // An odd shift: half of 28801 rounds down on both the holiday and the half-day side.
    const odd = workDaysOf(spec([28801, 28801, 28801, 28801, 28801, 0, 0], { holidays: { 4: 'half' } }));
    const amounts = absenceAmounts(odd, period('2026-01-05', '2026-01-06', false, true));
    expect(amounts.requestedTime).toEqual({ '2026-01-05': 14400, '2026-01-06': 14400 });
    // 2 × 14400/28801 = 0.99997, counted to four decimals.
    expect(amounts.workingDays).toBe(1);
    expect(absenceAmounts(odd, period('2026-01-06', '2026-01-06', true, true)).workingDays).toBe(0.5);
  });

  it('the first working day’s shift is the day’s unit, even when a weekend or a day outside the contract comes first', () => {
    // 3 January 2026 is a Saturday; the contract starts on Tuesday 6 January (offsets 0-4 outside).
    const days = workDaysOf(spec([28800, 21600, 21600, 21600, 14400, 0, 0], { outsideContract: new Set([0, 1, 2, 3, 4]) }));
    const amounts = absenceAmounts(days, period('2026-01-03', '2026-01-09'));
    expect(amounts.workshiftSecondsPerDay).toBe(21600);
    expect(amounts.requestedTime).toEqual({ '2026-01-06': 21600, '2026-01-07': 21600, '2026-01-08': 21600, '2026-01-09': 14400 });
    expect(amounts.workingDays).toBe(4);
  });

  it('a period of days off only costs nothing and knows no shift (0 = unknown)', () => {
    const amounts = absenceAmounts(workDaysOf(spec(FULL_TIME, { holidays: { 4: 'full' } })), period('2026-01-03', '2026-01-05'));
    expect(amounts).toEqual({ requestedTime: {}, workingDays: 0, totalSeconds: 0, workshiftSecondsPerDay: 0 });
    // Under contract but before any assignment: nothing either.
    expect(absenceAmounts(workDaysOf(spec(FULL_TIME, { unassigned: new Set([4, 5]) })), period('2026-01-05', '2026-01-06')).totalSeconds).toBe(0);
  });

  it('a half-day start on a Saturday takes nothing from Monday', () => {
    const amounts = absenceAmounts(workDaysOf(spec(FULL_TIME)), period('2026-01-03', '2026-01-05', true, false));
    expect(amounts.requestedTime).toEqual({ '2026-01-05': 28800 });
  });
});

describe('workingDayDetails', () => {
  const times = { startTime: '13:00', endTime: '12:30' };

  it('lists the stored days ascending, half days by the 900-second tolerance, hours only on half-day sides (property)', () => {
    fc.assert(
      fc.property(calendarAndPeriod, fc.boolean(), ({ spec, period }, reversed) => {
        const amounts = model(spec, period);
        // The stored map's key order is not the details' order.
        const stored = Object.fromEntries(reversed ? Object.entries(amounts.requestedTime).reverse() : Object.entries(amounts.requestedTime));
        const details = workingDayDetails(stored, amounts.workshiftSecondsPerDay, period, times);
        expect(details.map((detail) => detail.date)).toEqual(amounts.days.map((day) => day.date));
        details.forEach((detail, i) => {
          const day = amounts.days[i];
          expect(detail).toEqual({
            date: day.date,
            seconds: day.seconds,
            is_half_day: amounts.workshiftSecondsPerDay - day.seconds > HALF_DAY_TOLERANCE_SECONDS,
            start_time: day.date === period.start && period.startsHalfDay ? '13:00' : null,
            end_time: day.date === period.end && period.endsHalfDay ? '12:30' : null,
          });
        });
      }),
      { numRuns: 300 },
    );
  });

  it('exactly 900 seconds short is a full day, 901 a half day; an unknown shift (0) has no half days', () => {
    const whole = { start: '2026-03-02', end: '2026-03-04', startsHalfDay: false, endsHalfDay: false };
    expect(workingDayDetails({ '2026-03-02': 27900, '2026-03-03': 27899, '2026-03-04': 28800 }, 28800, whole, times)).toEqual([
      { date: '2026-03-02', seconds: 27900, is_half_day: false, start_time: null, end_time: null },
      { date: '2026-03-03', seconds: 27899, is_half_day: true, start_time: null, end_time: null },
      { date: '2026-03-04', seconds: 28800, is_half_day: false, start_time: null, end_time: null },
    ]);
    expect(workingDayDetails({ '2026-03-02': 100 }, 0, whole, times)[0].is_half_day).toBe(false);
  });

  it('a single half day shows both hours on its one entry', () => {
    const single = { start: '2026-03-02', end: '2026-03-02', startsHalfDay: true, endsHalfDay: true };
    expect(workingDayDetails({ '2026-03-02': 14400 }, 28800, single, { startTime: '08:00', endTime: '12:00' })).toEqual([
      { date: '2026-03-02', seconds: 14400, is_half_day: true, start_time: '08:00', end_time: '12:00' },
    ]);
    expect(workingDayDetails({}, 0, single, times)).toEqual([]);
  });
});
