import { describe, expect, it } from 'vitest';
import { daysOffByDate, publicHolidays } from './holiday-calendar.js';

const dates = async (country: string, region: string | null, year: number) =>
  (await publicHolidays(country, region, `${year}-01-01`, `${year}-12-31`)).map((day) => day.date);

describe('public holidays (date-holidays)', () => {
  it('Luxembourg 2026 and 2027, Europe Day (9 May) included', async () => {
    expect(await dates('LU', null, 2026)).toEqual([
      '2026-01-01',
      '2026-04-06', // Easter Monday
      '2026-05-01',
      '2026-05-09', // Europe Day
      '2026-05-14', // Ascension
      '2026-05-25', // Whit Monday
      '2026-06-23', // National Day
      '2026-08-15',
      '2026-11-01',
      '2026-12-25',
      '2026-12-26',
    ]);
    expect(await dates('LU', null, 2027)).toEqual([
      '2027-01-01',
      '2027-03-29',
      '2027-05-01',
      '2027-05-06',
      '2027-05-09',
      '2027-05-17',
      '2027-06-23',
      '2027-08-15',
      '2027-11-01',
      '2027-12-25',
      '2027-12-26',
    ]);
    expect(await publicHolidays('LU', null, '2026-05-09', '2026-05-09')).toEqual([
      { date: '2026-05-09', name: 'Journée de l’Europe', half_day: false, source: 'public' },
    ]);
  });

  it('Bavaria 2026 and 2027: Epiphany and Corpus Christi besides the national days', async () => {
    expect(await dates('DE', 'BY', 2026)).toEqual([
      '2026-01-01',
      '2026-01-06', // Heilige Drei Könige
      '2026-04-03',
      '2026-04-06',
      '2026-05-01',
      '2026-05-14',
      '2026-05-25',
      '2026-06-04', // Fronleichnam
      '2026-10-03',
      '2026-11-01',
      '2026-12-25',
      '2026-12-26',
    ]);
    expect(await dates('DE', 'BY', 2027)).toEqual([
      '2027-01-01',
      '2027-01-06',
      '2027-03-26',
      '2027-03-29',
      '2027-05-01',
      '2027-05-06',
      '2027-05-17',
      '2027-05-27',
      '2027-10-03',
      '2027-11-01',
      '2027-12-25',
      '2027-12-26',
    ]);
    expect((await publicHolidays('DE', 'BY', '2026-01-06', '2026-01-06')).map((day) => day.name)).toEqual(['Heilige Drei Könige']);
  });

  it('North Rhine-Westphalia has no Epiphany; Germany without a region has neither it nor Corpus Christi', async () => {
    expect(await dates('DE', 'NW', 2027)).toEqual([
      '2027-01-01',
      '2027-03-26',
      '2027-03-29',
      '2027-05-01',
      '2027-05-06',
      '2027-05-17',
      '2027-05-27',
      '2027-10-03',
      '2027-11-01',
      '2027-12-25',
      '2027-12-26',
    ]);
    const national = await dates('DE', null, 2026);
    expect(national).not.toContain('2026-01-06');
    expect(national).not.toContain('2026-06-04');
    expect(national).toContain('2026-10-03');
    // Region codes are read case-insensitively.
    expect(await dates('de', 'by', 2026)).toEqual(await dates('DE', 'BY', 2026));
  });

  it('answers the range only, across a year boundary', async () => {
    expect((await publicHolidays('LU', null, '2026-12-20', '2027-01-05')).map((day) => day.date)).toEqual(['2026-12-25', '2026-12-26', '2027-01-01']);
    expect(await publicHolidays('LU', null, '2026-07-01', '2026-07-31')).toEqual([]);
  });

  it('a public holiday starting in the afternoon is a half day; one of several days gives each of them', async () => {
    expect((await publicHolidays('IS', null, '2026-12-24', '2026-12-26')).map((day) => [day.date, day.half_day])).toEqual([
      ['2026-12-24', true], // Aðfangadagur, from 13:00
      ['2026-12-25', false],
      ['2026-12-26', false],
    ]);
    // Korea's Seollal: one holiday of three days, as date-holidays dates it.
    expect((await publicHolidays('KR', null, '2026-02-14', '2026-02-22')).map((day) => day.date)).toEqual(['2026-02-17', '2026-02-18', '2026-02-19']);
  });

  it('a full day off wins over a half day on the same date', () => {
    const map = daysOffByDate([
      { date: '2026-12-24', name: 'Half', half_day: true, source: 'tenant' },
      { date: '2026-12-25', name: 'Half', half_day: true, source: 'tenant' },
      { date: '2026-12-25', name: 'Christmas', half_day: false, source: 'public' },
      { date: '2026-12-31', name: 'Full', half_day: false, source: 'tenant' },
      { date: '2026-12-31', name: 'Half', half_day: true, source: 'tenant' },
    ]);
    expect(Object.fromEntries(map)).toEqual({ '2026-12-24': 'half', '2026-12-25': 'full', '2026-12-31': 'full' });
  });
});
