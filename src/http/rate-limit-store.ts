import LocalStore, { type CounterStore } from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { RedisLink } from '../platform/redis.js';

/** A fixed-window counter as @fastify/rate-limit's stores implement it (callback style). */
export type RateLimitStore = CounterStore;

/** Clients one instance keeps counters for in memory; beyond it the least recent are dropped. */
export const TRACKED_CLIENTS = 100_000;

/**
 * @fastify/rate-limit's own stores: in memory (answers synchronously), or its atomic Redis script
 * so several instances share one budget. `name` keeps each limit's counters apart in Redis.
 * With Redis, a request that cannot be counted there (Redis down, or its command failed) is counted
 * in memory instead: each instance then enforces the limit alone until Redis is back.
 */
export function rateLimitStore(redis: RedisLink | null, keyPrefix: string, name = ''): RateLimitStore {
  const local = new LocalStore(false, false, TRACKED_CLIENTS);
  if (!redis) return local;
  const shared = new RedisStore(false, false, redis.client, `${keyPrefix}${name}`);
  return {
    incr(key, callback, timeWindow, max) {
      if (!redis.up) {
        redis.fellBack('rate_limit');
        return local.incr(key, callback, timeWindow, max);
      }
      shared.incr(
        key,
        (error, counted) => {
          if (!error && counted) return callback(null, counted);
          redis.failed('rate_limit', error ?? new Error('no count from Redis'));
          local.incr(key, callback, timeWindow, max);
        },
        timeWindow,
        max,
      );
    },
  };
}
