import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { RedisLink } from '../redis.js';
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

/** The link SharedVersions uses, around the fake: `down` sends every use to its fallback, `recover()` ends the outage. */
function fakeLink(redis: ReturnType<typeof fakeRedis>) {
  const recovery: Array<() => void> = [];
  const link = {
    client: redis as unknown as Redis,
    down: false,
    get up() {
      return !link.down;
    },
    async attempt<T>(_use: string, shared: (client: Redis) => Promise<T>, fallback: () => T | Promise<T>) {
      if (link.down) return fallback();
      return shared(link.client).catch(fallback);
    },
    fellBack() {},
    failed() {},
    onRecovery: (listener: () => void) => recovery.push(listener),
    recover() {
      link.down = false;
      for (const listener of recovery) listener();
    },
  };
  return link as typeof link & RedisLink;
}

describe('shared change counters', () => {
  it('drops a tenant’s cached data when another instance counted a write, and only then', async () => {
    const redis = fakeRedis();
    const here = new ChangeTracker();
    const there = new ChangeTracker();
    here.shared = new SharedVersions(fakeLink(redis), 'p:', here);
    there.shared = new SharedVersions(fakeLink(redis), 'p:', there);
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
    tracker.shared = new SharedVersions(fakeLink(redis), 'p:', tracker);
    await tracker.refresh('t1');
    const stamp = tracker.sequence;
    redis.failing = true;
    expect(await tracker.refresh('t1')).toBe(true);
    expect(tracker.changedSince('t1', stamp)).toBe(true);
    await expect(tracker.shared.bump('t1')).resolves.toBeUndefined(); // a write's answer never fails for it
  });

  it('reads the database while Redis is down, and trusts no cached entry of the outage once it is back', async () => {
    const redis = fakeRedis();
    const link = fakeLink(redis);
    const tracker = new ChangeTracker();
    tracker.shared = new SharedVersions(link, 'p:', tracker);
    await tracker.refresh('t1');
    expect(await tracker.refresh('t1')).toBe(false);
    link.down = true;
    expect(await tracker.refresh('t1')).toBe(true);
    // Cached during the outage, while another instance's write went uncounted (its Redis was down too).
    const cachedDuringOutage = tracker.sequence;
    link.recover();
    expect(await tracker.refresh('t1')).toBe(true);
    expect(tracker.changedSince('t1', cachedDuringOutage)).toBe(true);
    expect(await tracker.refresh('t1')).toBe(false);
  });
});
