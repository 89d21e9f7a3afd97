/**
 * Integrations: what a customer connects to the PBX from outside. Integration API keys (created,
 * revealed, revoked by an admin) and the outgoing webhooks' delivery log and signing secret
 * (read and rotated by an admin, each rotation in the audit trail), and webhook subscriptions: live
 * events delivered to a URL an admin subscribes.
 * Delivery itself (signing, retries, URL guard, the subscriptions' dispatch) is platform/webhooks.
 */
import type { RoutePlugin } from '../../platform/context.js';
import { apiKeyRoutes } from './api-keys/api-keys.routes.js';
import { webhookRoutes } from './webhooks/webhooks.routes.js';
import { webhookSubscriptionRoutes } from './webhook-subscriptions/webhook-subscriptions.routes.js';

/** Each resource's routes, registered by modules/index.ts under the API prefix. */
export const integrationRoutes: RoutePlugin[] = [apiKeyRoutes, webhookRoutes, webhookSubscriptionRoutes];

export { seedIntegrations } from './integrations.seed.js';
