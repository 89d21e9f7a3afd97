import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';
import { Counter, Gauge, type Registry } from 'prom-client';

/** What each use of Redis falls back to while it is down: counted apart in `redis_fallbacks_total`. */
export type RedisUse = 'rate_limit' | 'throttle' | 'cache' | 'broadcast';

/**
 * The longest a request waits for one Redis command. Redis answers in well under a millisecond;
 * a command that takes this long means Redis (or the way to it) is failing, and the connection is
 * dropped and made again while the fallbacks serve.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** The longest one connection attempt waits (an address that drops packets). */
export const REDIS_CONNECT_TIMEOUT_MS = 2000;

interface Log {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

/** Redis as every use sees it: the client, whether it is usable now, and the fallback path. */
export interface RedisLink {
  readonly client: Redis;
  /** Connected and answering: commands go to Redis; otherwise each use falls back at once. */
  readonly up: boolean;
  /**
   * Runs `shared` on Redis when it is up, else (or when the command fails) `fallback`, never
   * throwing Redis's errors: a Redis failure is counted and logged once per outage, never a 500.
   */
  attempt<T>(use: RedisUse, shared: (client: Redis) => Promise<T>, fallback: () => T | Promise<T>): Promise<T>;
  /** For callers driving the client themselves: a use that went to its fallback because Redis is down. */
  fellBack(use: RedisUse): void;
  /** For callers driving the client themselves: a command that failed; the caller falls back. */
  failed(use: RedisUse, error: Error): void;
  /** Called each time Redis is usable again after an outage (what was shared meanwhile may have been missed). */
  onRecovery(listener: () => void): void;
}

/** The URL as it may be printed: without its password. */
export function printableRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(unreadable URL)';
  }
}

/** ioredis is loaded only when Redis is configured (about 0.1 s of every start otherwise). */
const loadRedis = () => (createRequire(import.meta.url)('ioredis') as { Redis: typeof Redis }).Redis;

/**
 * The instance's connection to Redis (REDIS_URL), kept so that Redis failing never fails a
 * request: no command waits for a connection (no offline queue, none resent after a drop), none
 * waits longer than REDIS_COMMAND_TIMEOUT_MS, and while the connection is down every use goes to
 * its fallback at once (this instance's own counters; the database instead of the caches). The
 * connection is retried every second at most. One warning when an outage starts, one line when it
 * ends; `redis_up` and `redis_fallbacks_total` in /metrics.
 */
export class SharedRedis implements RedisLink {
  readonly client: Redis;
  readonly url: string;
  private starting = true;
  private down = false;
  /** The outage began but is not yet logged: waiting for the error that explains it. */
  private unexplained: NodeJS.Timeout | null = null;
  private downSince = 0;
  private lastError: Error | null = null;
  private lastCommandWarning = 0;
  private readonly recoveryListeners: Array<() => void> = [];
  private readonly upGauge = new Gauge({
    name: 'redis_up',
    help: '1 while Redis (REDIS_URL) is connected and answering, 0 while its uses fall back',
    registers: [],
  });
  private readonly fallbacks = new Counter({
    name: 'redis_fallbacks_total',
    help: 'Uses of Redis served by their fallback (this instance’s counters, the database) because Redis was down or failed',
    labelNames: ['use'] as const,
    registers: [],
  });

  constructor(
    url: string,
    private readonly log: Log,
  ) {
    this.url = url;
    this.client = new (loadRedis())(
      url,
      SharedRedis.options(() => this.starting),
    );
    this.upGauge.set(0);
    this.client.on('error', (error: Error) => this.onError(error));
    this.client.on('close', () => this.onClose());
    this.client.on('ready', () => this.onReady());
  }

  /** Options for every connection to Redis (the subscriber's too); `once` gives up after the first failure (start-up). */
  static options(once: () => boolean = () => false): RedisOptions {
    return {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
      retryStrategy: (attempt) => (once() ? null : Math.min(attempt * 100, 1000)),
    };
  }

  get up(): boolean {
    return !this.down && this.client.status === 'ready';
  }

  /**
   * At start-up: connects, or throws one line naming REDIS_URL (without its password) and why.
   * The server does not start without the Redis it was told to share state through; once it
   * runs, Redis may come and go.
   */
  async connect(): Promise<void> {
    try {
      await this.client.connect();
    } catch (error) {
      this.client.disconnect();
      const reason = (this.lastError ?? (error as Error)).message;
      throw new Error(
        `Redis is unreachable at REDIS_URL=${printableRedisUrl(this.url)} (${reason}); start it, or unset REDIS_URL to run a single instance without it`,
        { cause: error },
      );
    }
    this.starting = false;
    this.lastError = null;
  }

  async close(): Promise<void> {
    this.starting = true; // no reconnecting
    if (this.unexplained) clearTimeout(this.unexplained);
    await this.client.quit().catch(() => this.client.disconnect());
  }

  onRecovery(listener: () => void): void {
    this.recoveryListeners.push(listener);
  }

  async attempt<T>(use: RedisUse, shared: (client: Redis) => Promise<T>, fallback: () => T | Promise<T>): Promise<T> {
    if (!this.up) {
      this.fellBack(use);
      return fallback();
    }
    try {
      return await shared(this.client);
    } catch (error) {
      this.failed(use, error as Error);
      return fallback();
    }
  }

  fellBack(use: RedisUse): void {
    this.fallbacks.inc({ use });
  }

  failed(use: RedisUse, error: Error): void {
    this.fellBack(use);
    if (this.starting) return;
    if (/timed out/i.test(error.message)) {
      // No answer in time: Redis or the way to it is stuck. Serve from the fallbacks and connect again.
      this.startOutage(error);
      if (this.client.status === 'ready') this.client.disconnect(true);
      return;
    }
    // The connection dropped under the command: its own events report the outage.
    if (this.client.status !== 'ready') return;
    // Redis answered with an error (out of memory, a read-only replica): warned once a minute.
    if (Date.now() - this.lastCommandWarning > 60_000) {
      this.lastCommandWarning = Date.now();
      this.log.warn({ err: error, use, redis: printableRedisUrl(this.url) }, 'Redis refused a command; this use falls back');
    }
  }

  /** The gauge and the counter, in the registry `/metrics` serves. */
  registerMetrics(registry: Registry): void {
    registry.registerMetric(this.upGauge);
    registry.registerMetric(this.fallbacks);
  }

  private onError(error: Error): void {
    this.lastError = error;
    if (this.unexplained) this.logOutage(error);
  }

  private onClose(): void {
    if (this.starting) return;
    this.startOutage(this.lastError);
  }

  private onReady(): void {
    this.lastError = null;
    if (!this.down) {
      this.upGauge.set(1);
      return;
    }
    if (this.unexplained) this.logOutage(null);
    this.down = false;
    this.upGauge.set(1);
    this.log.info({ redis: printableRedisUrl(this.url), down_ms: Date.now() - this.downSince }, 'Redis is back: limits, throttles and caches are shared again');
    for (const listener of this.recoveryListeners) listener();
  }

  /** Once per outage: the state flips and a warning follows, with the error that explains it when one comes soon. */
  private startOutage(error: Error | null): void {
    if (this.down) return;
    this.down = true;
    this.downSince = Date.now();
    this.upGauge.set(0);
    if (error) return this.logOutage(error);
    // A connection closed by the peer says nothing; the next attempt's error (refused, timed out) will.
    this.unexplained = setTimeout(() => this.logOutage(null), 1000);
    this.unexplained.unref();
  }

  private logOutage(error: Error | null): void {
    if (this.unexplained) clearTimeout(this.unexplained);
    this.unexplained = null;
    this.log.warn(
      { ...(error ? { err: error } : {}), redis: printableRedisUrl(this.url) },
      'Redis unavailable: rate limits and throttles count on this instance alone, caches read the database, until it is back',
    );
  }
}
