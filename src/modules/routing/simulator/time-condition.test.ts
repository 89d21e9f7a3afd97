import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { localInstant } from './time-condition.js';

/** What localInstant answered before it kept a minute per zone: luxon on each instant. */
function byLuxon(at: Date, zone: string) {
  const local = DateTime.fromJSDate(at, { zone });
  return { date: local.toISODate(), weekday: local.weekday, time: local.toFormat('HH:mm'), label: `${local.toFormat('cccc d LLLL yyyy, HH:mm')} (${zone})` };
}

describe('localInstant (kept per zone and minute)', () => {
  it('answers as luxon does for every instant, across minutes, zones taken in turn and clock changes', () => {
    const zones = ['Europe/Luxembourg', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC'];
    // Around the spring and autumn changes of 2026 in Europe, the US and Lord Howe (a 30-minute change), every 7 s.
    const starts = ['2026-03-29T00:58:00Z', '2026-10-25T00:58:00Z', '2026-03-08T06:58:00Z', '2026-11-01T05:58:00Z', '2026-04-04T14:58:00Z'];
    let checked = 0;
    for (const start of starts)
      for (let ms = Date.parse(start); ms < Date.parse(start) + 5 * 60_000; ms += 7_000)
        for (const zone of zones) {
          const at = new Date(ms);
          expect(localInstant(at, zone)).toEqual(byLuxon(at, zone));
          checked += 1;
        }
    expect(checked).toBe(5 * 43 * zones.length);
  });

  it('reads each instant of a minute again where the zone’s offset has seconds', () => {
    // Liberia kept -00:44:30 until 1972: its local minute starts 30 s into the UTC one.
    const zone = 'Africa/Monrovia';
    const before = new Date('1971-06-01T10:00:20Z'); // 09:15:50 local
    const after = new Date('1971-06-01T10:00:40Z'); // 09:16:10 local
    expect(localInstant(before, zone).time).toBe('09:15');
    expect(localInstant(after, zone).time).toBe('09:16');
    expect(localInstant(before, zone)).toEqual(byLuxon(before, zone));
  });

  it('reads a minute again when the clock changes inside it', () => {
    // Liberia moved to GMT at 00:44:30 UTC on 7 January 1972, 30 s into a UTC minute.
    const zone = 'Africa/Monrovia';
    const before = new Date('1972-01-07T00:44:10Z'); // 23:59:40 on the 6th
    const after = new Date('1972-01-07T00:44:50Z'); // 00:44:50 on the 7th
    expect(localInstant(after, zone)).toEqual(byLuxon(after, zone));
    expect(localInstant(before, zone)).toEqual(byLuxon(before, zone));
    expect(localInstant(before, zone).date).toBe('1972-01-06');
    expect(localInstant(after, zone)).toEqual(byLuxon(after, zone));
  });
});
