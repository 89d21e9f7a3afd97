// @fastify/rate-limit ships its stores as plain CommonJS files without typings of their own.
// (An ambient module may not import a relative path, so the store's shape is declared here.)
declare module '@fastify/rate-limit/store/LocalStore.js' {
  /** A fixed-window counter, callback style; `ttl` is what is left of the window, in milliseconds. */
  export interface CounterStore {
    incr(key: string, callback: (error: Error | null, result: { current: number; ttl: number } | null) => void, timeWindow: number, max: number): void;
  }
  const LocalStore: new (continueExceeding: boolean, exponentialBackoff: boolean, cache?: number) => CounterStore;
  export default LocalStore;
}
declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { Redis } from 'ioredis';
  import type { CounterStore } from '@fastify/rate-limit/store/LocalStore.js';
  const RedisStore: new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key?: string) => CounterStore;
  export default RedisStore;
}
