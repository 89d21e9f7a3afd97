import type { RedisLink } from '../redis.js';
import type { ChangeTracker, SharedCounters } from './change-tracker.js';

const EVERYTHING = '*';

/** The Redis key of a tenant's change counter (`null`: the counter of changes to every tenant). */
export function sharedVersionKey(prefix: string, pbxId: string | null): string {
  return `${prefix}version:${pbxId ?? EVERYTHING}`;
}

/**
 * Each tenant's change counter in Redis, so that a read on one instance right after a write on
 * another never gets a stale cached answer: the write's response leaves only once its counter is
 * incremented, and a request trusts its instance's cache for a tenant only after reading that
 * tenant's counter (one MGET) and finding it where it was. Pub/sub (change-broadcast) still drops
 * entries early; this is what makes it exact. Without Redis there is one instance, or the TTL.
 * While Redis is down, every request reads the database (nothing cached is trusted), and once it
 * is back every counter is read afresh, since writes elsewhere during the outage went uncounted.
 */
export class SharedVersions implements SharedCounters {
  private readonly seen = new Map<string, string>();

  constructor(
    private readonly redis: RedisLink,
    private readonly prefix: string,
    private readonly tracker: ChangeTracker,
  ) {
    redis.onRecovery(() => this.seen.clear());
  }

  private key(scope: string): string {
    return sharedVersionKey(this.prefix, scope === EVERYTHING ? null : scope);
  }

  /**
   * Called for a write made here, after it committed and before its response leaves. Redis down:
   * the write is not counted (instances that cannot reach Redis read the database anyway; others
   * see it within their cache TTL).
   */
  async bump(pbxId: string | null): Promise<void> {
    const scope = pbxId ?? EVERYTHING;
    const before = this.seen.get(scope);
    const after = await this.redis.attempt(
      'cache',
      async (client) => String(await client.incr(this.key(scope))),
      () => null,
    );
    if (after === null) return;
    // Another instance counted in between: its change may postdate our own local drop.
    if (before === undefined || Number(after) !== Number(before) + 1) this.tracker.apply(pbxId);
    this.seen.set(scope, after);
  }

  /**
   * Reads the counters of the tenant and of everything; what moved since this instance last looked
   * is applied to the tracker (dropping the cached entries). True when anything moved. A Redis
   * failure counts as a change: the request reads the database rather than trust the cache.
   */
  async refresh(pbxId: string | null): Promise<boolean> {
    const scopes = pbxId === null ? [EVERYTHING] : [EVERYTHING, pbxId];
    const values = await this.redis.attempt(
      'cache',
      (client) => client.mget(...scopes.map((scope) => this.key(scope))),
      () => null,
    );
    if (values === null) {
      this.tracker.apply(pbxId);
      return true;
    }
    let moved = false;
    scopes.forEach((scope, index) => {
      const value = values[index] ?? '0';
      if (this.seen.get(scope) === value) return;
      this.seen.set(scope, value);
      this.tracker.apply(scope === EVERYTHING ? null : scope);
      moved = true;
    });
    return moved;
  }
}
