import { describe, expect, it } from 'vitest';
import { firstRunOnContract, localDay, nextPeriodStart } from './schedule.js';

describe('when recurring transactions run', () => {
  it('a template created on the 31st runs on the 1st of the next month, local midnight', () => {
    expect(nextPeriodStart('2026-01-31T10:00:00.000Z', 'monthly_start', 'Europe/Luxembourg')).toBe('2026-01-31T23:00:00.000Z');
    expect(nextPeriodStart('2026-03-31T10:00:00.000Z', 'monthly_start', 'UTC')).toBe('2026-04-01T00:00:00.000Z');
  });

  it('at 23:30 local on 31 December the next year starts half an hour later, at local (not UTC) midnight', () => {
    // 31 December 23:30 in Berlin is 22:30 UTC.
    expect(nextPeriodStart('2026-12-31T22:30:00.000Z', 'yearly_start', 'Europe/Berlin')).toBe('2026-12-31T23:00:00.000Z');
    expect(nextPeriodStart('2026-12-31T22:30:00.000Z', 'monthly_start', 'Europe/Berlin')).toBe('2026-12-31T23:00:00.000Z');
    // In New York, 1 January 01:00 UTC is still 31 December: the year there starts at 05:00 UTC.
    expect(nextPeriodStart('2027-01-01T01:00:00.000Z', 'yearly_start', 'America/New_York')).toBe('2027-01-01T05:00:00.000Z');
    // In Auckland it is already 2027 at 11:00 UTC on 31 December: the next year is 2028.
    expect(nextPeriodStart('2026-12-31T11:30:00.000Z', 'yearly_start', 'Pacific/Auckland')).toBe('2027-12-31T11:00:00.000Z');
  });

  it('29 February of a leap year runs yearly on the next 1 January', () => {
    expect(nextPeriodStart('2028-02-29T12:00:00.000Z', 'yearly_start', 'Europe/Berlin')).toBe('2028-12-31T23:00:00.000Z');
    expect(nextPeriodStart('2028-02-29T12:00:00.000Z', 'monthly_start', 'Europe/Berlin')).toBe('2028-02-29T23:00:00.000Z');
  });

  it('follows daylight saving time: 1 April is 22:00 UTC the day before, 1 November 23:00', () => {
    expect(nextPeriodStart('2026-03-15T09:00:00.000Z', 'monthly_start', 'Europe/Berlin')).toBe('2026-03-31T22:00:00.000Z');
    expect(nextPeriodStart('2026-10-15T09:00:00.000Z', 'monthly_start', 'Europe/Berlin')).toBe('2026-10-31T23:00:00.000Z');
    // Within the night the clocks change (29 March 2026, 02:00 -> 03:00), April still starts at local midnight.
    expect(nextPeriodStart('2026-03-29T01:30:00.000Z', 'monthly_start', 'Europe/Berlin')).toBe('2026-03-31T22:00:00.000Z');
  });

  it('a period start itself belongs to its period: the next one follows it (how a run schedules the next)', () => {
    expect(nextPeriodStart('2026-01-31T23:00:00.000Z', 'monthly_start', 'Europe/Luxembourg')).toBe('2026-02-28T23:00:00.000Z');
    expect(nextPeriodStart('2026-02-28T23:00:00.000Z', 'monthly_start', 'Europe/Luxembourg')).toBe('2026-03-31T22:00:00.000Z');
    expect(nextPeriodStart('2026-12-31T23:00:00.000Z', 'yearly_start', 'Europe/Luxembourg')).toBe('2027-12-31T23:00:00.000Z');
  });

  it('a run books the day its due instant falls on in the zone', () => {
    expect(localDay('2026-03-31T22:00:00.000Z', 'Europe/Berlin')).toBe('2026-04-01');
    expect(localDay('2026-03-31T22:00:00.000Z', 'UTC')).toBe('2026-03-31');
    expect(localDay(new Date('2027-01-01T05:00:00.000Z'), 'America/New_York')).toBe('2027-01-01');
  });

  it('the first run is on a contract: never before its first day, nor in a gap between two; null when none covers a period start', () => {
    const now = '2026-01-31T10:00:00.000Z';
    const open = (start: string, end: string | null = null) => ({ contract_start: start, contract_end: end });
    // Running today: the next period start.
    expect(firstRunOnContract(now, 'monthly_start', 'Europe/Berlin', [open('2024-01-01')])).toBe('2026-01-31T23:00:00.000Z');
    // Starting on a period start: that day, local midnight; mid-period: the next start (April in summer time).
    expect(firstRunOnContract(now, 'monthly_start', 'Europe/Berlin', [open('2026-03-01')])).toBe('2026-02-28T23:00:00.000Z');
    expect(firstRunOnContract(now, 'monthly_start', 'Europe/Berlin', [open('2026-03-15')])).toBe('2026-03-31T22:00:00.000Z');
    expect(firstRunOnContract(now, 'yearly_start', 'Europe/Berlin', [open('2026-03-15')])).toBe('2026-12-31T23:00:00.000Z');
    expect(firstRunOnContract(now, 'yearly_start', 'UTC', [open('2027-01-01')])).toBe('2027-01-01T00:00:00.000Z');
    expect(firstRunOnContract(now, 'monthly_start', 'America/New_York', [open('2026-05-02')])).toBe('2026-06-01T04:00:00.000Z');
    // Ended before the next start, or a gap: the next contract's first period start.
    expect(firstRunOnContract(now, 'monthly_start', 'UTC', [open('2024-01-01', '2026-01-31'), open('2026-04-10')])).toBe('2026-05-01T00:00:00.000Z');
    // Contracts too short to hold a period start, or none ahead: null.
    expect(firstRunOnContract(now, 'monthly_start', 'UTC', [open('2024-01-01', '2026-01-31'), open('2026-03-10', '2026-03-20')])).toBeNull();
    expect(firstRunOnContract(now, 'yearly_start', 'UTC', [open('2026-03-01', '2026-12-31')])).toBeNull();
    expect(firstRunOnContract(now, 'monthly_start', 'UTC', [])).toBeNull();
  });
});
