/**
 * Integrations: what a customer connects to the PBX from outside. Integration API keys (created,
 * revealed, revoked by an admin) and the outgoing webhooks' delivery log and signing secret.
 * Delivery itself (signing, retries, URL guard) is platform/webhooks.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { apiKeyRoutes } from './api-keys/api-keys.routes.js';
import { webhookRoutes } from './webhooks/webhooks.routes.js';

export async function integrationRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  await app.register(apiKeyRoutes, { ctx });
  await app.register(webhookRoutes, { ctx });
}
