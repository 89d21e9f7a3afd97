import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TooManyRequests } from '../platform/errors.js';
import type { RedisLink } from '../platform/redis.js';
import { rateLimitStore, type RateLimitStore } from './rate-limit-store.js';
import { isInternalRead } from './conditional-requests.js';

/** A route's own limit, replacing the default one on that route (e.g. the call-detail read). */
export interface RouteRateLimit {
  max: number;
  /** Milliseconds. */
  timeWindow: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's own limit, or `false`: never counted (health checks, which a load balancer polls). */
    rateLimit?: RouteRateLimit | false;
  }
}

const DEFAULT_WINDOW_MS = 60_000;

/**
 * Who a request counts against: a user (all of its tokens together, so logging in again does not
 * start a fresh budget), an API key, or the client address for a request without a valid token.
 */
export function rateLimitKey(request: FastifyRequest): string {
  const principal = request.principal;
  if (!principal) return `ip:${request.ip}`;
  return principal.kind === 'user' ? `user:${principal.userId}` : `key:${principal.id}`;
}

/** A limit's X-RateLimit-* and RateLimit / RateLimit-Policy headers; also set by a limit counted elsewhere (the configuration push's). */
export function setRateLimitHeaders(reply: FastifyReply, max: number, remaining: number, resetSeconds: number, windowSeconds: number): void {
  reply.header('x-ratelimit-limit', max);
  reply.header('x-ratelimit-remaining', remaining);
  reply.header('x-ratelimit-reset', resetSeconds);
  reply.header('ratelimit-policy', `"default";q=${max};w=${windowSeconds}`);
  reply.header('ratelimit', `"default";r=${remaining};t=${resetSeconds}`);
}

/**
 * 120 requests a minute per user or API key by default, or its PBX plan's figure; a route may declare
 * its own `config.rateLimit` instead. Every request is counted, unknown routes and refusals
 * included, after the principal is resolved and before it is authorized, and every response
 * carries X-RateLimit-* and the IETF draft RateLimit / RateLimit-Policy fields.
 *
 * Counting is @fastify/rate-limit's (its stores, see rate-limit-store.ts). Its request handler is
 * an async function that awaits four times per request; driving the stores from this callback
 * hook lets the in-memory count finish synchronously, which the hottest reads (`/me`) notice.
 * With Redis, a request that cannot be counted there (Redis down or slow) is counted by this
 * instance alone (rate-limit-store.ts). Routes declaring `rateLimit: false` are not counted at all.
 */
export function registerRateLimits(app: FastifyInstance, options: { perMinute: number; redis: RedisLink | null; keyPrefix: string }): void {
  const defaultStore = rateLimitStore(options.redis, options.keyPrefix);
  const routeStores = new WeakMap<RouteRateLimit, RateLimitStore>();
  const storeOf = (request: FastifyRequest, limit: RouteRateLimit): RateLimitStore => {
    let store = routeStores.get(limit);
    if (store === undefined) {
      store = rateLimitStore(options.redis, options.keyPrefix, `${request.method}${request.routeOptions.url ?? ''}-`);
      routeStores.set(limit, store);
    }
    return store;
  };
  let warnedAt = 0;

  app.addHook('onRequest', (request, reply, done) => {
    const routeLimit = request.routeOptions.config.rateLimit;
    // A conditional write's read of its resource's current ETag is part of the write, counted once.
    if (routeLimit === false || isInternalRead(request)) return done();
    const store = routeLimit ? storeOf(request, routeLimit) : defaultStore;
    const max = routeLimit ? routeLimit.max : (request.principal?.rateLimit ?? options.perMinute);
    const windowMs = routeLimit ? routeLimit.timeWindow : DEFAULT_WINDOW_MS;
    store.incr(
      rateLimitKey(request),
      (error, counted) => {
        if (error || !counted) {
          if (Date.now() - warnedAt > 60_000) {
            warnedAt = Date.now();
            request.log.warn({ err: error }, 'rate-limit store unavailable; requests are let through uncounted');
          }
          return done();
        }
        const resetSeconds = Math.ceil(counted.ttl / 1000);
        setRateLimitHeaders(reply, max, Math.max(0, max - counted.current), resetSeconds, Math.ceil(windowMs / 1000));
        done(counted.current > max ? new TooManyRequests(resetSeconds) : undefined);
      },
      windowMs,
      max,
    );
  });
}
