import type { FastifyInstance, onSendHookHandler, RouteOptions } from 'fastify';
import type { ChangeTracker } from './change-tracker.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A writing route whose writes no cached token or profile shows (a stream ticket): its answers
     * leave the caches be, so a wall screen reconnecting does not empty its tenant's caches.
     */
    keepsCaches?: boolean;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const writes = (method: RouteOptions['method']) => (Array.isArray(method) ? method : [method]).some((m) => !READ_METHODS.has(m.toUpperCase()));

/**
 * Every request that may have written marks its tenant's data changed, before its response leaves
 * (its transaction has committed by then), so the next read of a cached token or profile sees the
 * write. Refused requests (4xx) wrote nothing; a request without a tenant (a login, an internal
 * key) marks every tenant. The hook is attached to writing routes only (less those declaring
 * `keepsCaches`): reads pay nothing for it.
 * Register before the routes.
 */
export function registerChangeTracking(app: FastifyInstance, changes: ChangeTracker): void {
  const markChanged: onSendHookHandler = (request, reply, payload, done) => {
    if (READ_METHODS.has(request.method) || (reply.statusCode >= 400 && reply.statusCode < 500)) return done(null, payload);
    const pbxId = request.principal?.pbxId ?? null;
    changes.markChanged(pbxId);
    // Several instances: the response waits for the shared counter, so the next read anywhere sees the write.
    if (!changes.shared) return done(null, payload);
    changes.shared.bump(pbxId).then(
      () => done(null, payload),
      (error: unknown) => {
        request.log.warn({ err: error }, 'change counter: Redis increment failed; other instances see the write within their cache TTL');
        done(null, payload);
      },
    );
  };
  app.addHook('onRoute', (route) => {
    if (!writes(route.method) || route.config?.keepsCaches === true) return;
    const existing = route.onSend;
    route.onSend = existing === undefined ? [markChanged] : [...(Array.isArray(existing) ? existing : [existing]), markChanged];
  });
}
