import type { FastifyInstance, onSendHookHandler, RouteOptions } from 'fastify';
import type { ChangeTracker } from './change-tracker.js';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const writes = (method: RouteOptions['method']) => (Array.isArray(method) ? method : [method]).some((m) => !READ_METHODS.has(m.toUpperCase()));

/**
 * Every request that may have written marks its tenant's data changed, before its response leaves
 * (its transaction has committed by then), so the next read of a cached token or profile sees the
 * write. Refused requests (4xx) wrote nothing; a request without a tenant (a login, an internal
 * key) marks every tenant. The hook is attached to writing routes only: reads pay nothing for it.
 * Register before the routes.
 */
export function registerChangeTracking(app: FastifyInstance, changes: ChangeTracker): void {
  const markChanged: onSendHookHandler = (request, reply, payload, done) => {
    if (!READ_METHODS.has(request.method) && (reply.statusCode < 400 || reply.statusCode >= 500)) changes.markChanged(request.principal?.pbxId ?? null);
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    if (!writes(route.method)) return;
    const existing = route.onSend;
    route.onSend = existing === undefined ? [markChanged] : [...(Array.isArray(existing) ? existing : [existing]), markChanged];
  });
}
