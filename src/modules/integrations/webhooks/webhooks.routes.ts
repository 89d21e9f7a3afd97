import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { WEBHOOKS_DOCS } from './webhooks.docs.js';
import { presentWebhookDelivery } from './webhooks.presenter.js';
import { WebhookDeliveriesService, type DeliveryRow } from './webhooks.service.js';
import { SigningSecretService } from './signing-secret.service.js';
import { DeliveryListQuery, DeliveryParams, RotateSigningSecretBody, SigningSecretResponse, WebhookDelivery } from './webhooks.schemas.js';

const USER = { user: true } as const;
const ADMIN = { user: 'admin' } as const;
/** Answers carrying the signing secret: never cached. */
const CARRIES_SECRET = { carriesSecret: true } as const;

/** The delivery log of outgoing webhooks and the signing secret to verify them. */
export async function webhookRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new WebhookDeliveriesService(ctx);
  const secrets = new SigningSecretService(ctx);
  const webhooks = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Webhooks'],
    docs: WEBHOOKS_DOCS,
    schema: WebhookDelivery,
    present: (rows: DeliveryRow[]) => rows.map(presentWebhookDelivery),
  });

  webhooks.list('/webhooks/deliveries', {
    auth: USER,
    operationId: 'listWebhookDeliveries',
    querystring: DeliveryListQuery,
    defaultSort: [{ field: 'created_at', direction: 'desc' }],
    fetch: ({ tenant, user, query }, { sort, page }) =>
      service.list(tenant, user, { event: query['filter[event]'], status: query['filter[status]'], subjectId: query['filter[subject_id]'] }, sort, page),
  });
  webhooks.read('/webhooks/deliveries/:delivery', {
    auth: USER,
    operationId: 'getWebhookDelivery',
    params: DeliveryParams,
    load: ({ tenant, user, params }) => service.get(tenant, user, params.delivery),
  });

  webhooks.route('/webhooks/signing-secret', {
    method: 'GET',
    auth: ADMIN,
    config: CARRIES_SECRET,
    operationId: 'getWebhookSigningSecret',
    response: { 200: SigningSecretResponse },
    handle: async ({ tenant }) => ({ data: await secrets.current(tenant) }),
  });
  webhooks.route('/webhooks/signing-secret/rotate', {
    method: 'POST',
    auth: ADMIN,
    config: CARRIES_SECRET,
    operationId: 'rotateWebhookSigningSecret',
    idempotent: true,
    body: RotateSigningSecretBody,
    // An empty POST rotates with the default window.
    optionalBody: true,
    response: { 200: SigningSecretResponse, 409: Type.Unsafe({ $ref: 'MessageError#' }) },
    handle: async ({ tenant, principal, request, body }) => {
      const { secret } = await secrets.rotate(tenant, principal, request.id, body.overlap_seconds);
      return { data: secret };
    },
  });
}
