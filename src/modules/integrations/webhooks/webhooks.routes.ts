import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf, tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { requireUser } from '../../../platform/auth/principal.js';
import { NotFound } from '../../../platform/errors.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { findDelivery, listDeliveries, type DeliveryRow } from './webhooks.queries.js';
import { SigningSecretService } from './signing-secret.service.js';
import {
  DeliveryListQuery,
  DeliveryParams,
  RotateSigningSecretBody,
  SigningSecretResponse,
  WebhookDelivery,
  type WebhookDeliveryView,
} from './webhooks.schemas.js';

const tags = ['Webhooks'];
const USER = { user: true } as const;
const ADMIN = { user: 'admin' } as const;

const SIGNING =
  'Each message carries webhook-id, webhook-timestamp and webhook-signature, as the Standard Webhooks specification defines: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, ' +
  'one per secret, space-separated. After a rotation, deliveries (retries of older messages included, since each attempt is signed when it is sent) carry two signatures, ' +
  'with the new and with the previous secret, until `previous_secret_expires_at`; a Standard Webhooks library accepts a message when any of them verifies, so receivers switch without losing messages. ' +
  'The secret is for the PBX administrators only: anyone holding it can sign messages that receivers will trust. Answers carrying it are sent with `Cache-Control: no-store`.';

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
    description:
      'User tokens only (API keys are refused). An administrator reads every delivery of the PBX, any other user only the deliveries of events about its own things (its contact imports). ' +
      'Narrow with `filter[event]`, `filter[status]` (pending, delivered, failed) and `filter[subject_id]`; newest first unless `sort` says otherwise (created_at, updated_at, delivered_at, event, status, attempts; any other is 422). Each entry carries the signed payload, the attempts and the last answer or error.',
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
    description:
      'User tokens only. The id is the message’s webhook-id (`msg_` and 32 hex digits). A delivery of another PBX, or, for a user who is not an administrator, of another user’s events, is 404.',
    params: DeliveryParams,
    load: async ({ tenant, scope, params }) => {
      const row = await findDelivery(ctx.db, tenant, scope, params.delivery);
      if (!row) throw new NotFound('Webhook delivery not found.');
      return row;
    },
  });

  const secrets = new SigningSecretService(ctx);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get('/webhooks/signing-secret', {
    config: { auth: ADMIN, carriesSecret: true },
    schema: {
      tags,
      operationId: 'getWebhookSigningSecret',
      summary: "The PBX's Standard Webhooks secret, to verify webhook-signature (administrators)",
      description: SIGNING,
      response: { 200: SigningSecretResponse },
    },
    handler: async (request) => ({ data: await secrets.current(tenantOfRequest(request)) }),
  });

  r.post('/webhooks/signing-secret/rotate', {
    config: { auth: ADMIN, carriesSecret: true },
    schema: {
      tags,
      operationId: 'rotateWebhookSigningSecret',
      summary: 'Replace the signing secret; the previous one keeps signing beside it for the overlap window',
      description:
        'Answers the new secret and when the previous one stops signing (`previous_secret_expires_at`, after `overlap_seconds`). ' +
        'The body may be left out (or `{}`): the server default window applies. ' +
        'Only the latest replaced secret keeps signing: rotating again within the window ends the older one at once. ' +
        'Each rotation is recorded in the audit trail (`GET /audit-events`, action `webhook_signing_secret.rotated`), without any secret. ' +
        '409 when another rotation happened at the same moment. ' +
        SIGNING,
      body: RotateSigningSecretBody,
      response: { 200: SigningSecretResponse, 409: { $ref: 'MessageError#' } },
    },
    // The body is optional: an empty POST rotates with the default window.
    preValidation: (request, _reply, done) => {
      (request as { body?: unknown }).body ??= {};
      done();
    },
    handler: async (request) => {
      const { secret } = await secrets.rotate(tenantOfRequest(request), principalOf(request), request.id, request.body.overlap_seconds);
      return { data: secret };
    },
  });
}
