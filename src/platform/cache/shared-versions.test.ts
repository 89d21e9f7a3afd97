import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ChangeTracker } from './change-tracker.js';
import { SharedVersions } from './shared-versions.js';

/** The two Redis commands the counters use, in memory; `failing` makes them throw. */
function fakeRedis() {
  const values = new Map<string, number>();
  const fake = {
    failing: false,
    incr: async (key: string) => {
      if (fake.failing) throw new Error('down');
      values.set(key, (values.get(key) ?? 0) + 1);
      return values.get(key)!;
    },
    mget: async (...keys: string[]) => {
      if (fake.failing) throw new Error('down');
      return keys.map((key) => (values.has(key) ? String(values.get(key)) : null));
    },
  };
  return fake;
}

describe('shared change counters', () => {
  it('drops a tenant’s cached data when another instance counted a write, and only then', async () => {
    const redis = fakeRedis();
    const here = new ChangeTracker();
    const there = new ChangeTracker();
    here.shared = new SharedVersions(redis as unknown as Redis, 'p:', here);
    there.shared = new SharedVersions(redis as unknown as Redis, 'p:', there);
    await here.refresh('t1');
    const stamp = here.sequence;
    expect(await here.refresh('t1')).toBe(false);
    expect(here.changedSince('t1', stamp)).toBe(false);

    await there.shared.bump('t2');
    expect(await here.refresh('t1')).toBe(false); // another tenant's write
    await there.shared.bump('t1');
    expect(await here.refresh('t1')).toBe(true);
    expect(here.changedSince('t1', stamp)).toBe(true);

    const later = here.sequence;
    await there.shared.bump(null); // a change to every tenant
    expect(await here.refresh('t3')).toBe(true);
    expect(here.changedSince('t1', later)).toBe(true);
  });

  it('counts a Redis failure as a change, so the database is read', async () => {
    const redis = fakeRedis();
    const tracker = new ChangeTracker();
    tracker.shared = new SharedVersions(redis as unknown as Redis, 'p:', tracker);
    await tracker.refresh('t1');
    const stamp = tracker.sequence;
    redis.failing = true;
    expect(await tracker.refresh('t1')).toBe(true);
    expect(tracker.changedSince('t1', stamp)).toBe(true);
  });
});
