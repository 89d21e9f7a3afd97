import type { FastifyInstance } from 'fastify';
import type { ChangeTracker } from './change-tracker.js';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every request that may have written marks its tenant's data changed, before its response leaves
 * (its transaction has committed by then), so the next read of a cached token or profile sees the
 * write. Refused requests (4xx) wrote nothing; a request without a tenant (a login, an internal
 * key) marks every tenant.
 */
export function registerChangeTracking(app: FastifyInstance, changes: ChangeTracker): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!READ_METHODS.has(request.method) && (reply.statusCode < 400 || reply.statusCode >= 500)) {
      changes.markChanged(request.principal?.pbxId ?? null);
    }
    done(null, payload);
  });
}
