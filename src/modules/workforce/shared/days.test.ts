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

  it('knows which month-days exist in a year and writes days as midnight UTC', () => {
    expect(dayOfYear(2028, '02-29')).toBe('2028-02-29');
    expect(dayOfYear(2027, '02-29')).toBeNull();
    expect(dayOfYear(2027, '12-24')).toBe('2027-12-24');
    expect(dayAsDateTime('2026-01-01')).toBe('2026-01-01T00:00:00.000Z');
    expect(dayAsDateTime(null)).toBeNull();
  });
});
