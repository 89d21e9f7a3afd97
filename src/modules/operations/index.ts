/** Operations: what an orchestrator asks without a token (liveness, readiness), outside the versioned API. */
export { healthRoutes } from './health.routes.js';
