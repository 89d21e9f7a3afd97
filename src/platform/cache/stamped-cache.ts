import type { AppContext } from '../context.js';
import type { ChangeTracker } from './change-tracker.js';

interface Entry<V> {
  value: V;
  pbxId: string | null;
  stamp: number;
  until: number;
}

export interface StampedCacheOptions {
  /** How long an entry may be used at most (bounds what changes made out of sight can leave stale); 0 disables the cache. */
  ttlMs: number;
  maxEntries: number;
  /** Milliseconds now (the app clock, so tests can move it). */
  now: () => number;
}

/**
 * A bounded in-process cache whose entries belong to a tenant and die when that tenant's data
 * changes (ChangeTracker) or when their time-to-live ends, whichever comes first.
 */
export class StampedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly changes: ChangeTracker,
    private readonly options: StampedCacheOptions,
  ) {}

  /** The stamp to pass to `set` for a value read from the database from now on. */
  stamp(): number {
    return this.changes.sequence;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until <= this.options.now() || this.changes.changedSince(entry.pbxId, entry.stamp)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps a value read after `stamp`, unless its tenant changed meanwhile (the read may predate the change). */
  set(key: string, pbxId: string | null, stamp: number, value: V): void {
    if (this.options.ttlMs <= 0 || this.changes.changedSince(pbxId, stamp)) return;
    if (!this.entries.has(key) && this.entries.size >= this.options.maxEntries) {
      // Oldest insertion first: cheap, and a hot entry simply comes back on its next miss.
      this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { value, pbxId, stamp, until: this.options.now() + this.options.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** A cache of tenant data on the app's change tracker, with the configured TTL and the app clock. */
export function tenantDataCache<V>(ctx: Pick<AppContext, 'changes' | 'config' | 'clock'>, maxEntries: number): StampedCache<V> {
  return new StampedCache<V>(ctx.changes, { ttlMs: ctx.config.cacheTtlMs, maxEntries, now: () => ctx.clock.nowMs() });
}
