/** The source of "now" for every TTL, expiry and schedule, so tests can move time. */
export interface Clock {
  now(): Date;
  /** The same instant in epoch milliseconds, without allocating a Date (hot paths). */
  nowMs(): number;
}

export const systemClock: Clock = { now: () => new Date(), nowMs: Date.now };

/** A clock that only moves when told; for tests. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string = '2026-01-15T09:00:00.000Z') {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  nowMs(): number {
    return this.current;
  }
  advance(seconds: number): void {
    this.current += seconds * 1000;
  }
  set(at: Date | string): void {
    this.current = new Date(at).getTime();
  }
}

export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}

export function isoIn(clock: Clock, seconds: number): string {
  return new Date(clock.now().getTime() + seconds * 1000).toISOString();
}
