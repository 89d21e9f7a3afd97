import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { TooManyRequests } from './errors.js';

/** Who a request counts against: its principal, or its address when it has none. */
export function rateLimitKey(request: FastifyRequest): string {
  const principal = request.principal;
  return principal ? `${principal.kind}:${principal.id}` : `ip:${request.ip}`;
}

/**
 * 120 requests a minute per principal by default, or the PBX plan's own figure. Counters are in
 * memory, or in Redis when configured so several instances share them. Every response carries
 * X-RateLimit-* and the IETF draft RateLimit / RateLimit-Policy fields.
 */
export async function registerRateLimits(app: FastifyInstance, options: { perMinute: number; redis: Redis | null; keyPrefix: string }): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: (request) => request.principal?.rateLimit ?? options.perMinute,
    timeWindow: 60_000,
    keyGenerator: rateLimitKey,
    nameSpace: options.keyPrefix,
    redis: options.redis ?? undefined,
    skipOnError: true,
    addHeadersOnExceeding: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true },
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    errorResponseBuilder: (_request, context) => new TooManyRequests(Math.ceil(context.ttl / 1000)),
  });

  app.addHook('onSend', (_request, reply, payload, done) => {
    const limit = reply.getHeader('x-ratelimit-limit');
    if (limit !== undefined) {
      const remaining = reply.getHeader('x-ratelimit-remaining') ?? 0;
      const reset = reply.getHeader('x-ratelimit-reset') ?? 60;
      reply.header('ratelimit-policy', `"default";q=${String(limit)};w=60`);
      reply.header('ratelimit', `"default";r=${String(remaining)};t=${String(reset)}`);
    }
    done(null, payload);
  });
}
