import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { requireUser } from '../../../platform/auth/principal.js';
import { NotFound } from '../../../platform/errors.js';
import { signingSecret } from '../../../platform/webhooks/webhooks.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { findDelivery, listDeliveries, type DeliveryRow } from './webhooks.queries.js';
import { DeliveryListQuery, DeliveryParams, SigningSecretResponse, WebhookDelivery, type WebhookDeliveryView } from './webhooks.schemas.js';

const tags = ['Webhooks'];
const USER = { user: true } as const;

function presentDelivery(row: DeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    event: row.event,
    subject_type: row.subject_type,
    subject_id: row.subject_id,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    response_status: row.response_status,
    last_error: row.last_error,
    payload: JSON.parse(row.payload) as unknown,
    created_at: row.created_at,
    updated_at: row.updated_at,
    delivered_at: row.delivered_at,
  };
}

/** The delivery log of outgoing webhooks and the signing secret to verify them. */
export async function webhookRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const deliveries = resourceRoutes(app, ctx.config.baseUrl, {
    tags,
    schema: WebhookDelivery,
    scope: ({ principal }) => requireUser(principal),
    present: (rows: DeliveryRow[]) => rows.map(presentDelivery),
  });

  deliveries.list('/webhooks/deliveries', {
    auth: USER,
    operationId: 'listWebhookDeliveries',
    summary: 'Delivery log of outgoing webhooks, newest first',
    querystring: DeliveryListQuery,
    defaultSort: [{ field: 'created_at', direction: 'desc' }],
    fetch: ({ tenant, scope, query }, { sort, page }) =>
      listDeliveries(
        ctx.db,
        tenant,
        scope,
        { event: query['filter[event]'], status: query['filter[status]'], subjectId: query['filter[subject_id]'] },
        sort,
        page,
      ),
  });
  deliveries.read('/webhooks/deliveries/:delivery', {
    auth: USER,
    operationId: 'getWebhookDelivery',
    summary: 'One webhook delivery',
    params: DeliveryParams,
    load: async ({ tenant, scope, params }) => {
      const row = await findDelivery(ctx.db, tenant, scope, params.delivery);
      if (!row) throw new NotFound('Webhook delivery not found.');
      return row;
    },
  });

  app.get('/webhooks/signing-secret', {
    config: { auth: USER },
    schema: {
      tags,
      operationId: 'getWebhookSigningSecret',
      summary: "The PBX's Standard Webhooks secret, to verify webhook-signature",
      description:
        'Each message carries webhook-id, webhook-timestamp and webhook-signature (v1,<base64 HMAC-SHA256 of "id.timestamp.body">), as the Standard Webhooks specification defines.',
      response: { 200: SigningSecretResponse },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: { secret: signingSecret(ctx.config, tenantOfRequest(request).pbxId) } };
    },
  });
}
