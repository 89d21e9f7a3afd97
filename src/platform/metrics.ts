import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { sha256 } from './crypto.js';
import { Unauthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The registry `/metrics` serves. */
    metricsRegistry: Registry;
  }
}

/** Mounts `GET /metrics` on an instance: the app itself, or a listener of its own (METRICS_LISTEN). */
export type MountMetrics = (instance: FastifyInstance) => void;

/** Whether an Authorization header is `Bearer <token>`; compared in constant time (digests of equal length). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = header?.startsWith('Bearer ') ? header.slice(7) : '';
  return timingSafeEqual(Buffer.from(sha256(sent), 'hex'), Buffer.from(sha256(token), 'hex'));
}

/**
 * Prometheus metrics: request counts and latency by route and status, plus process metrics.
 * Counting starts here; where `/metrics` is served is the caller's choice (the returned mount).
 * With a token, a scrape must send `Authorization: Bearer <token>` (401 `{error}` otherwise).
 */
export function registerMetrics(app: FastifyInstance, options: { token: string | null }): MountMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Domains add their own gauges to it (the PBX engine: AMI settings that are failing).
  app.decorate('metricsRegistry', registry);
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status (its _count is the request count)',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  // One labelled child per method/route/status, looked up by a plain string key on each request.
  const series = new Map<string, { observe(value: number): void }>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let child = series.get(key);
    if (child === undefined) {
      child = duration.labels({ method: request.method, route, status_code: String(reply.statusCode) });
      series.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    done();
  });

  const { token } = options;
  const guard: onRequestHookHandler = (request, reply, done) => {
    if (token === null || bearerMatches(request.headers.authorization, token)) return done();
    reply.header('www-authenticate', 'Bearer realm="metrics"');
    done(new Unauthorized(request.headers.authorization ? 'Invalid metrics token.' : 'Unauthenticated.'));
  };
  return (instance) =>
    instance.get('/metrics', { schema: { hide: true }, onRequest: guard }, async (_request, reply) => {
      reply.type(registry.contentType);
      return registry.metrics();
    });
}
