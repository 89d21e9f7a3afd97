import { describe, expect, it } from 'vitest';
import { ChangeTracker } from './change-tracker.js';
import { StampedCache } from './stamped-cache.js';

function cache(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const changes = new ChangeTracker();
  let now = 1_000;
  const entries = new StampedCache<string>(changes, { ttlMs: options.ttlMs ?? 2_000, maxEntries: options.maxEntries ?? 10, now: () => now });
  return { changes, entries, advance: (ms: number) => (now += ms) };
}

describe('StampedCache', () => {
  it('serves an entry until its tenant changes, and only its tenant', () => {
    const { changes, entries } = cache();
    entries.set('a', 'pbx-a', entries.stamp(), 'A');
    entries.set('b', 'pbx-b', entries.stamp(), 'B');
    expect(entries.get('a')).toBe('A');
    changes.markChanged('pbx-b');
    expect(entries.get('a')).toBe('A');
    expect(entries.get('b')).toBeUndefined();
  });

  it('drops everything on a change of no particular tenant', () => {
    const { changes, entries } = cache();
    entries.set('a', 'pbx-a', entries.stamp(), 'A');
    entries.set('n', null, entries.stamp(), 'N');
    changes.markChanged(null);
    expect(entries.get('a')).toBeUndefined();
    expect(entries.get('n')).toBeUndefined();
  });

  it('refuses a value read before a change that landed while it was being read', () => {
    const { changes, entries } = cache();
    const stamp = entries.stamp();
    changes.markChanged('pbx-a'); // the write commits while the read is in flight
    entries.set('a', 'pbx-a', stamp, 'stale');
    expect(entries.get('a')).toBeUndefined();
    entries.set('a', 'pbx-a', entries.stamp(), 'fresh');
    expect(entries.get('a')).toBe('fresh');
  });

  it('forgets an entry when its time-to-live ends, and keeps nothing with a TTL of 0', () => {
    const { entries, advance } = cache({ ttlMs: 2_000 });
    entries.set('a', 'pbx-a', entries.stamp(), 'A');
    advance(1_999);
    expect(entries.get('a')).toBe('A');
    advance(1);
    expect(entries.get('a')).toBeUndefined();

    const off = cache({ ttlMs: 0 }).entries;
    off.set('a', 'pbx-a', off.stamp(), 'A');
    expect(off.get('a')).toBeUndefined();
  });

  it('stays within its bound, dropping the oldest entry first', () => {
    const { entries } = cache({ maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) entries.set(key, 'pbx-a', entries.stamp(), key.toUpperCase());
    expect(entries.size).toBe(2);
    expect(entries.get('a')).toBeUndefined();
    expect(entries.get('c')).toBe('C');
  });

  it('applies changes announced by other instances without announcing them again', () => {
    const { changes, entries } = cache();
    const announced: Array<string | null> = [];
    changes.onChange((pbxId) => announced.push(pbxId));
    entries.set('a', 'pbx-a', entries.stamp(), 'A');
    changes.apply('pbx-a');
    expect(entries.get('a')).toBeUndefined();
    expect(announced).toEqual([]);
    changes.markChanged('pbx-a');
    expect(announced).toEqual(['pbx-a']);
  });
});
