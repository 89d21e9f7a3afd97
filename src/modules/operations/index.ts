/**
 * Operations: running the service and watching over it. Liveness and readiness for orchestrators,
 * outside the versioned API, and each PBX's audit trail for its administrators.
 */
import type { RoutePlugin } from '../../platform/context.js';
import { auditEventRoutes } from './audit-events/audit-events.routes.js';

export { healthRoutes } from './health.routes.js';

/** Each resource's routes, registered by modules/index.ts under the API prefix. */
export const operationsRoutes: RoutePlugin[] = [auditEventRoutes];
