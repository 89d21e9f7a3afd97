import type { Redis } from 'ioredis';
import LocalStore, { type CounterStore } from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';

/** A fixed-window counter as @fastify/rate-limit's stores implement it (callback style). */
export type RateLimitStore = CounterStore;

/** Clients one instance keeps counters for in memory; beyond it the least recent are dropped. */
export const TRACKED_CLIENTS = 100_000;

/**
 * @fastify/rate-limit's own stores: in memory (answers synchronously), or its atomic Redis script
 * so several instances share one budget. `name` keeps each limit's counters apart in Redis.
 */
export function rateLimitStore(redis: Redis | null, keyPrefix: string, name = ''): RateLimitStore {
  return redis ? new RedisStore(false, false, redis, `${keyPrefix}${name}`) : new LocalStore(false, false, TRACKED_CLIENTS);
}
