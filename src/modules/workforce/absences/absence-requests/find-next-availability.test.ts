/**
 * findNextAvailability() against a simple model: random calendars (weekly patterns, holidays,
 * days outside a contract), random granted absences that never share a day (as the ledger keeps
 * them), and the three ways of asking (from today, for a request, for a removal).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContractTableRow } from '../../time/contracts/contracts.queries.js';
import type { WorkDay } from '../../time/required-work-time/work-calendar.js';
import type { NextAvailabilityView } from './absence-requests.schemas.js';
import { findNextAvailability, type AwayRow } from './next-availability.js';

const DAY_MS = 86_400_000;
const EPOCH = Date.parse('2026-03-02T00:00:00Z'); // a Monday

function dayAt(offset: number): { day: string; weekday: number } {
  const date = new Date(EPOCH + offset * DAY_MS);
  return { day: date.toISOString().slice(0, 10), weekday: date.getUTCDay() || 7 };
}

const CONTRACT = { id: 'contract' } as unknown as ContractTableRow;

interface CalendarSpec {
  week: number[];
  length: number;
  holidays: Record<number, 'full' | 'half'>;
  outsideContract: Set<number>;
}

function scheduledAt(spec: CalendarSpec, offset: number): { full: number; scheduled: number } {
  if (spec.outsideContract.has(offset)) return { full: 0, scheduled: 0 };
  const full = spec.week[dayAt(offset).weekday - 1];
  const holiday = spec.holidays[offset];
  return { full, scheduled: holiday === 'full' ? 0 : holiday === 'half' ? Math.floor(full / 2) : full };
}

function workDaysOf(spec: CalendarSpec): WorkDay[] {
  return Array.from({ length: spec.length }, (_, offset) => {
    const { day, weekday } = dayAt(offset);
    const { full, scheduled } = scheduledAt(spec, offset);
    const inContract = !spec.outsideContract.has(offset);
    return {
      day,
      weekday,
      contract: inContract ? CONTRACT : undefined,
      shiftSeconds: full,
      scheduledSeconds: scheduled,
      holiday: inContract ? spec.holidays[offset] : undefined,
    };
  });
}

/** A granted row by offsets: what it takes each working day, and the hour its half-day end ends. */
interface ModelRow {
  id: string;
  from: number;
  to: number;
  startsHalfDay: boolean;
  endsHalfDay: boolean;
  endTime: string;
  seconds: Map<number, number>;
}

function modelRow(spec: CalendarSpec, id: string, from: number, to: number, startsHalfDay: boolean, endsHalfDay: boolean, endTime: string): ModelRow {
  // On a single day either flag makes one half day (both flags), as the request service stores it.
  if (from === to && (startsHalfDay || endsHalfDay)) startsHalfDay = endsHalfDay = true;
  const seconds = new Map<number, number>();
  for (let offset = from; offset <= to; offset++) {
    const { full, scheduled } = scheduledAt(spec, offset);
    if (scheduled <= 0) continue;
    const half = (offset === from && startsHalfDay) || (offset === to && endsHalfDay);
    const taken = half ? Math.min(scheduled, Math.floor(full / 2)) : scheduled;
    if (taken > 0) seconds.set(offset, taken);
  }
  return { id, from, to, startsHalfDay, endsHalfDay, endTime, seconds };
}

const awayRowOf = (row: ModelRow): AwayRow => ({
  id: row.id,
  requestedTime: Object.fromEntries([...row.seconds].map(([offset, seconds]) => [dayAt(offset).day, seconds])),
  endDay: dayAt(row.to).day,
  endTime: row.endsHalfDay ? row.endTime : null,
});

type Mode = { kind: 'today' } | { kind: 'request'; row: ModelRow } | { kind: 'removal'; row: ModelRow };

interface Scenario {
  spec: CalendarSpec;
  /** Every granted row laid out. */
  rows: ModelRow[];
  /** The rows the search counts as away (a removal's request left out). */
  away: ModelRow[];
  anchor: number;
  today: number;
  mode: Mode;
}

/**
 * The model: from the anchor, skip days with nothing scheduled; on a working day, the employee is
 * at work when more than 15 minutes of the scheduled time are left once the rows' time is taken.
 * The hour is the end of a half day that ends that morning. The reason: a removal's is removal; a
 * request's is after_absences when another row took time on a day looked at, else after_request;
 * from today, at_work on the anchor itself, after_absences when absences took the days before,
 * else next_working_day (only days off came first).
 */
function model(spec: CalendarSpec, rows: ModelRow[], anchor: number, today: number, mode: Mode): NextAvailabilityView {
  let othersTook = false;
  let absentBefore = false;
  for (let offset = anchor; offset < spec.length; offset++) {
    const { scheduled } = scheduledAt(spec, offset);
    if (scheduled <= 0) continue;
    const takers = rows.filter((row) => (row.seconds.get(offset) ?? 0) > 0);
    const taken = takers.reduce((sum, row) => sum + (row.seconds.get(offset) ?? 0), 0);
    if (mode.kind === 'request' && takers.some((row) => row.id !== mode.row.id)) othersTook = true;
    if (scheduled - taken > 900) {
      const endingHalf = takers.find((row) => row.to === offset && row.endsHalfDay);
      const reason =
        mode.kind === 'removal'
          ? 'removal'
          : mode.kind === 'request'
            ? othersTook
              ? 'after_absences'
              : 'after_request'
            : offset === anchor
              ? 'at_work'
              : absentBefore
                ? 'after_absences'
                : 'next_working_day';
      return { date: dayAt(offset).day, time: endingHalf ? endingHalf.endTime : null, in_past: offset < today, reason };
    }
    if (taken > 0) absentBefore = true;
  }
  return { date: null, time: null, in_past: false, reason: 'no_scheduled_work' };
}

const daySeconds = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.constantFrom(28800, 14400, 1800) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 43200 }) },
);

/** A calendar, granted rows that never share a day, and a question. */
const scenario = fc
  .record({
    week: fc.array(daySeconds, { minLength: 7, maxLength: 7 }),
    length: fc.integer({ min: 7, max: 70 }),
    holidayOffsets: fc.array(fc.tuple(fc.nat(69), fc.constantFrom<'full' | 'half'>('full', 'half')), { maxLength: 12 }),
    outside: fc.array(fc.nat(69), { maxLength: 10 }),
    layout: fc.array(
      fc.record({
        gap: fc.nat(6),
        length: fc.integer({ min: 1, max: 8 }),
        startsHalfDay: fc.boolean(),
        endsHalfDay: fc.boolean(),
        endTime: fc.constantFrom('11:30', '12:00', '13:15'),
      }),
      { maxLength: 6 },
    ),
    kind: fc.constantFrom('today', 'request', 'removal'),
    pick: fc.nat(),
    anchorSeed: fc.nat(),
    todaySeed: fc.nat(),
  })
  .map((input): Scenario => {
    const spec: CalendarSpec = {
      week: input.week,
      length: input.length,
      holidays: Object.fromEntries(input.holidayOffsets.filter(([offset]) => offset < input.length)),
      outsideContract: new Set(input.outside.filter((offset) => offset < input.length)),
    };
    const rows: ModelRow[] = [];
    let next = 0;
    for (const [i, slot] of input.layout.entries()) {
      const from = next + slot.gap;
      const to = from + slot.length - 1;
      if (to >= spec.length) break;
      rows.push(modelRow(spec, `row-${i}`, from, to, slot.startsHalfDay, slot.endsHalfDay, slot.endTime));
      next = to + 1;
    }
    const today = input.todaySeed % spec.length;
    if (input.kind === 'today' || rows.length === 0) {
      const anchor = input.anchorSeed % spec.length;
      // Asked from today: the anchor is today.
      return { spec, rows, away: rows, anchor, today: anchor, mode: { kind: 'today' } };
    }
    const row = rows[input.pick % rows.length];
    if (input.kind === 'request') return { spec, rows, away: rows, anchor: row.to, today, mode: { kind: 'request', row } };
    // A removal: anchored at the removed request's first day, the request itself no longer away.
    const away = rows.filter((other) => other !== row);
    return { spec, rows, away, anchor: row.from, today, mode: { kind: 'removal', row } };
  });

function actual(input: Scenario): NextAvailabilityView {
  return findNextAvailability(workDaysOf(input.spec), input.away.map(awayRowOf), {
    anchor: dayAt(input.anchor).day,
    today: dayAt(input.today).day,
    ...(input.mode.kind === 'request' ? { requestId: input.mode.row.id } : {}),
    ...(input.mode.kind === 'removal' ? { removal: true } : {}),
  });
}

describe('findNextAvailability: property tests against a model', () => {
  it('answers what the model answers, for every way of asking', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        expect(actual(input)).toEqual(model(input.spec, input.away, input.anchor, input.today, input.mode));
      }),
      { numRuns: 1000 },
    );
  });

  it('the answer is never before the anchor, is a day with more than 15 minutes left, and is the first such day', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const answer = actual(input);
        const left = (offset: number) => scheduledAt(input.spec, offset).scheduled - input.away.reduce((sum, row) => sum + (row.seconds.get(offset) ?? 0), 0);
        const free = Array.from({ length: input.spec.length }, (_, offset) => offset).filter((offset) => offset >= input.anchor && left(offset) > 900);
        expect(answer.date).toBe(free.length ? dayAt(free[0]).day : null);
      }),
      { numRuns: 500 },
    );
  });

  it('a removal answers no later than the same question with the removed request still away', () => {
    fc.assert(
      fc.property(
        scenario.filter((input) => input.mode.kind === 'removal'),
        (input) => {
          const removed = actual(input);
          const kept = actual({ ...input, away: input.rows, mode: { kind: 'today' } });
          if (kept.date !== null) expect(removed.date !== null && removed.date <= kept.date).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('findNextAvailability: examples', () => {
  const FULL_TIME = [28800, 28800, 28800, 28800, 28800, 0, 0];
  const spec = (extra: Partial<CalendarSpec> = {}): CalendarSpec => ({ week: FULL_TIME, length: 30, holidays: {}, outsideContract: new Set(), ...extra });
  const ask = (s: CalendarSpec, rows: ModelRow[], anchor: number, search: { today?: number; requestId?: string; removal?: boolean } = {}) =>
    findNextAvailability(workDaysOf(s), rows.map(awayRowOf), {
      anchor: dayAt(anchor).day,
      today: dayAt(search.today ?? anchor).day,
      ...(search.requestId ? { requestId: search.requestId } : {}),
      ...(search.removal ? { removal: true } : {}),
    });

  it('at work today; a weekend or a holiday gives the next working day', () => {
    const s = spec({ holidays: { 7: 'full' } });
    // Offset 0 is Monday 2 March 2026; 5 and 6 the weekend, 7 (Monday 9 March) a holiday.
    expect(ask(s, [], 0)).toEqual({ date: '2026-03-02', time: null, in_past: false, reason: 'at_work' });
    expect(ask(s, [], 5)).toEqual({ date: '2026-03-10', time: null, in_past: false, reason: 'next_working_day' });
    // A half-day holiday still leaves 4 h of work.
    expect(ask(spec({ holidays: { 7: 'half' } }), [], 5)).toEqual({ date: '2026-03-09', time: null, in_past: false, reason: 'next_working_day' });
  });

  it('away today: back after the absence; a half day that ends the morning gives its hour', () => {
    const s = spec();
    const week = modelRow(s, 'week', 0, 4, false, false, '12:00');
    expect(ask(s, [week], 1)).toEqual({ date: '2026-03-09', time: null, in_past: false, reason: 'after_absences' });
    const morning = modelRow(s, 'morning', 0, 2, false, true, '12:30');
    expect(ask(s, [morning], 0)).toEqual({ date: '2026-03-04', time: '12:30', in_past: false, reason: 'after_absences' });
    // Away this afternoon only (a half-day start): at work today, from the start of the day.
    const afternoon = modelRow(s, 'afternoon', 0, 2, true, false, '12:00');
    expect(ask(s, [afternoon], 0)).toEqual({ date: '2026-03-02', time: null, in_past: false, reason: 'at_work' });
  });

  it('for a request: after it, or later when accepted absences follow on', () => {
    const s = spec();
    const request = modelRow(s, 'request', 0, 2, false, false, '12:00');
    expect(ask(s, [request], 2, { requestId: 'request' })).toEqual({ date: '2026-03-05', time: null, in_past: false, reason: 'after_request' });
    const following = modelRow(s, 'following', 3, 4, false, false, '12:00');
    expect(ask(s, [request, following], 2, { requestId: 'request' })).toEqual({ date: '2026-03-09', time: null, in_past: false, reason: 'after_absences' });
    // A request ending with a morning off: back that day at its hour.
    const halfEnd = modelRow(s, 'half-end', 0, 2, false, true, '13:15');
    expect(ask(s, [halfEnd], 2, { requestId: 'half-end' })).toEqual({ date: '2026-03-04', time: '13:15', in_past: false, reason: 'after_request' });
  });

  it('a removal answers the removed period’s first day not covered by another absence, possibly in the past', () => {
    const s = spec();
    const other = modelRow(s, 'other', 0, 0, false, false, '12:00');
    // Removing 2-6 March (no longer away) while Monday 2 March is another accepted absence; today is 10 March.
    expect(ask(s, [other], 0, { today: 8, removal: true })).toEqual({ date: '2026-03-03', time: null, in_past: true, reason: 'removal' });
    expect(ask(s, [], 9, { today: 8, removal: true })).toEqual({ date: '2026-03-11', time: null, in_past: false, reason: 'removal' });
  });

  it('no scheduled work: no contract or no shift within the days given', () => {
    const none = { date: null, time: null, in_past: false, reason: 'no_scheduled_work' };
    expect(ask(spec({ week: [0, 0, 0, 0, 0, 0, 0] }), [], 0)).toEqual(none);
    expect(ask(spec({ outsideContract: new Set(Array.from({ length: 30 }, (_, i) => i)) }), [], 3, { removal: true })).toEqual(none);
    // Away on every working day left.
    const s = spec({ length: 5 });
    expect(ask(s, [modelRow(s, 'rest', 0, 4, false, false, '12:00')], 0)).toEqual(none);
  });

  it('15 minutes of tolerance: 900 seconds left is not at work, 901 is', () => {
    const s = spec({ week: [28800, 28800, 0, 0, 0, 0, 0] });
    const row = (seconds: number): AwayRow => ({ id: 'r', requestedTime: { '2026-03-02': seconds }, endDay: '2026-03-02', endTime: null });
    const search = { anchor: '2026-03-02', today: '2026-03-02' };
    expect(findNextAvailability(workDaysOf(s), [row(27900)], search).date).toBe('2026-03-03');
    expect(findNextAvailability(workDaysOf(s), [row(27899)], search)).toEqual({ date: '2026-03-02', time: null, in_past: false, reason: 'at_work' });
  });
});
