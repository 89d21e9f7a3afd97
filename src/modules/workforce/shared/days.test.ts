import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import { addDays, dayAsDateTime, dayOfYear, daysInclusive, eachDay, isoWeekday, todayIn } from './days.js';

describe('calendar days', () => {
  it("today is the day in the PBX's time zone", () => {
    const clock = new ManualClock('2026-03-14T23:30:00.000Z');
    expect(todayIn('Europe/Luxembourg', clock)).toBe('2026-03-15');
    expect(todayIn('UTC', clock)).toBe('2026-03-14');
    expect(todayIn('America/New_York', clock)).toBe('2026-03-14');
    // The night the clocks go forward in Europe.
    clock.set('2026-03-29T00:30:00.000Z');
    expect(todayIn('Europe/Berlin', clock)).toBe('2026-03-29');
    expect(() => todayIn('Mars/Olympus', clock)).toThrow('unknown time zone');
  });

  it("follows the clock over midnight in the PBX's zone, forwards and back, on days the clocks change", () => {
    const clock = new ManualClock('2026-03-28T22:59:59.999Z');
    const zones = ['Europe/Luxembourg', 'America/Santiago', 'Asia/Kolkata', 'UTC'];
    const expected = () => zones.map((zone) => DateTime.fromMillis(clock.nowMs(), { zone }).toISODate());
    for (const at of [
      '2026-03-28T22:59:59.999Z',
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T21:59:59.999Z',
      '2026-03-29T22:00:00.000Z',
      '2026-03-28T22:30:00.000Z',
      '2026-04-05T03:59:59.999Z',
      '2026-04-05T04:00:00.000Z',
      '2026-09-06T03:59:59.999Z',
      '2026-09-06T04:00:00.000Z',
      '2026-09-05T18:29:59.999Z',
      '2026-09-05T18:30:00.000Z',
    ]) {
      clock.set(at);
      expect(zones.map((zone) => todayIn(zone, clock))).toEqual(expected());
    }
    clock.set('2026-03-28T23:00:00.000Z');
    expect(todayIn('Europe/Luxembourg', clock)).toBe('2026-03-29');
    clock.set('2026-03-28T22:59:59.999Z');
    expect(todayIn('Europe/Luxembourg', clock)).toBe('2026-03-28');
  });

  it('walks days and weekdays exactly as luxon does, over leap years and time changes', () => {
    const days = eachDay('2027-12-25', '2028-03-05');
    expect(days).toHaveLength(daysInclusive('2027-12-25', '2028-03-05'));
    let expected = DateTime.fromISO('2027-12-25', { zone: 'utc' });
    for (const { day, weekday } of days) {
      expect(day).toBe(expected.toISODate());
      expect(weekday).toBe(expected.weekday);
      expect(isoWeekday(day)).toBe(weekday);
      expected = expected.plus({ days: 1 });
    }
    expect(days.map((d) => d.day)).toContain('2028-02-29');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysInclusive('2026-01-01', '2026-04-10')).toBe(100);
    expect(daysInclusive('2026-05-01', '2026-05-01')).toBe(1);
    expect(isoWeekday('2026-03-15')).toBe(7);
    expect(isoWeekday('2026-03-16')).toBe(1);
  });

  it('walks every range as the epoch, written by toISOString, walks it (month and year ends, leap days, centuries, years outside 1000-9999)', () => {
    const DAY_MS = 86_400_000;
    const byEpoch = (from: string, to: string) => {
      const days: Array<{ day: string; weekday: number }> = [];
      for (let epoch = Date.parse(`${from}T00:00:00Z`), last = Date.parse(`${to}T00:00:00Z`); epoch <= last; epoch += DAY_MS)
        days.push({ day: new Date(epoch).toISOString().slice(0, 10), weekday: new Date(epoch).getUTCDay() || 7 });
      return days;
    };
    const ranges: Array<[string, string]> = [
      ['1899-12-01', '1900-03-31'],
      ['1999-12-20', '2000-03-10'],
      ['2023-01-01', '2025-12-31'],
      ['2100-02-01', '2100-03-02'],
      ['0999-12-25', '1000-01-05'],
      ['9999-12-25', '9999-12-31'],
      ['2026-05-01', '2026-05-01'],
      ['2026-05-02', '2026-05-01'],
    ];
    for (const [from, to] of ranges) expect(eachDay(from, to)).toEqual(byEpoch(from, to));
  });

  it('knows which month-days exist in a year and writes days as midnight UTC', () => {
    expect(dayOfYear(2028, '02-29')).toBe('2028-02-29');
    expect(dayOfYear(2027, '02-29')).toBeNull();
    expect(dayOfYear(2027, '12-24')).toBe('2027-12-24');
    expect(dayAsDateTime('2026-01-01')).toBe('2026-01-01T00:00:00.000Z');
    expect(dayAsDateTime(null)).toBeNull();
  });
});
