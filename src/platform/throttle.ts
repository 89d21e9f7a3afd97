import type { Redis } from 'ioredis';
import type { Clock } from './clock.js';
import { TooManyRequests } from './errors.js';
import type { RedisLink } from './redis.js';

/** Fixed-window counters shared by every throttle (in memory, or Redis across instances). */
export interface CounterStore {
  /** Adds one to `key` and returns the count in the current window and the seconds left in it. */
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetInSeconds: number }>;
  /** The count in the current window (0 when none) and the seconds left in it, without adding one. */
  peek(key: string): Promise<{ count: number; resetInSeconds: number }>;
  reset(key: string): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, { count: number; resetAt: number }>();
  constructor(private readonly clock: Clock) {}
  async hit(key: string, windowSeconds: number) {
    const now = this.clock.nowMs();
    let entry = this.counters.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.counters.set(key, entry);
      if (this.counters.size > 100_000) this.sweep(now);
    }
    entry.count += 1;
    return { count: entry.count, resetInSeconds: Math.ceil((entry.resetAt - now) / 1000) };
  }
  async peek(key: string) {
    const now = this.clock.nowMs();
    const entry = this.counters.get(key);
    return entry && entry.resetAt > now ? { count: entry.count, resetInSeconds: Math.ceil((entry.resetAt - now) / 1000) } : { count: 0, resetInSeconds: 0 };
  }
  async reset(key: string) {
    this.counters.delete(key);
  }
  private sweep(now: number) {
    for (const [key, entry] of this.counters) if (entry.resetAt <= now) this.counters.delete(key);
  }
}

export class RedisCounterStore implements CounterStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}
  async hit(key: string, windowSeconds: number) {
    const name = this.prefix + key;
    const results = await this.redis.multi().incr(name).pttl(name).exec();
    const count = Number(results?.[0]?.[1] ?? 1);
    let ttl = Number(results?.[1]?.[1] ?? -1);
    if (ttl < 0) {
      await this.redis.pexpire(name, windowSeconds * 1000);
      ttl = windowSeconds * 1000;
    }
    return { count, resetInSeconds: Math.ceil(ttl / 1000) };
  }
  async peek(key: string) {
    const name = this.prefix + key;
    const results = await this.redis.multi().get(name).pttl(name).exec();
    const ttl = Number(results?.[1]?.[1] ?? -1);
    return { count: Number(results?.[0]?.[1] ?? 0), resetInSeconds: ttl > 0 ? Math.ceil(ttl / 1000) : 0 };
  }
  async reset(key: string) {
    await this.redis.del(this.prefix + key);
  }
}

/**
 * The throttles' counters in Redis (shared by every instance) while it answers, else in this
 * instance's memory: a login, a magic link or a one-time code is never refused, nor delayed, for
 * Redis being down; its guessing guard then counts on this instance alone, from the outage on.
 */
export class SharedCounterStore implements CounterStore {
  private readonly shared: RedisCounterStore;
  constructor(
    private readonly redis: RedisLink,
    prefix: string,
    private readonly local: CounterStore,
  ) {
    this.shared = new RedisCounterStore(redis.client, prefix);
  }
  hit(key: string, windowSeconds: number) {
    return this.redis.attempt(
      'throttle',
      () => this.shared.hit(key, windowSeconds),
      () => this.local.hit(key, windowSeconds),
    );
  }
  peek(key: string) {
    return this.redis.attempt(
      'throttle',
      () => this.shared.peek(key),
      () => this.local.peek(key),
    );
  }
  async reset(key: string) {
    await this.local.reset(key);
    await this.redis.attempt(
      'throttle',
      () => this.shared.reset(key),
      () => undefined,
    );
  }
}

/** Counts an attempt against each key and refuses with 429 once any of them is over its limit. */
export async function throttle(store: CounterStore, limits: Array<{ key: string; max: number; windowSeconds: number }>): Promise<void> {
  for (const limit of limits) {
    const { count, resetInSeconds } = await store.hit(limit.key, limit.windowSeconds);
    if (count > limit.max) throw new TooManyRequests(resetInSeconds, 'Too many attempts. Please try again later.');
  }
}

/**
 * For guards that count failures only (a password login): refuses with 429 while any key has
 * reached its limit, without counting this attempt; `throttle` then counts the attempts that fail.
 */
export async function refuseWhenExhausted(store: CounterStore, limits: Array<{ key: string; max: number }>): Promise<void> {
  for (const limit of limits) {
    const { count, resetInSeconds } = await store.peek(limit.key);
    if (count >= limit.max) throw new TooManyRequests(resetInSeconds, 'Too many attempts. Please try again later.');
  }
}
