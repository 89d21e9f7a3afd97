import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../../platform/context.js';
import { tenantOfRequest, userPrincipalOf } from '../../../platform/auth/auth-plugin.js';
import { NotFound } from '../../../platform/errors.js';
import { fetchPage } from '../../../db/paging.js';
import { ListQuery, pageRequest } from '../../../http/list-query.js';
import { Paginated, paginate } from '../../../http/pagination.js';
import { DataEnvelope, DateTime, Nullable, StringEnum, Uuid } from '../../../http/schema.js';
import type { UserPrincipal } from '../../../platform/auth/principal.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { signingSecret } from '../../../platform/webhooks/webhooks.js';
import type { WebhookDeliveryTable } from '../../../platform/webhooks/webhooks.tables.js';

const tags = ['Webhooks'];
const USER = { auth: { user: true } } as const;

export const WebhookDelivery = Type.Object(
  {
    id: Type.String({ description: 'The webhook-id header of the message.' }),
    event: Type.String({ examples: ['contact_import.completed'] }),
    subject_type: Type.String(),
    subject_id: Uuid(),
    url: Type.String(),
    status: StringEnum(['pending', 'delivered', 'failed'] as const),
    attempts: Type.Integer(),
    response_status: Nullable(Type.Integer()),
    last_error: Nullable(Type.String()),
    payload: Type.Unknown({ description: 'The JSON body that was signed and sent.' }),
    created_at: DateTime(),
    updated_at: DateTime(),
    delivered_at: Nullable(DateTime()),
  },
  { $id: 'WebhookDelivery' },
);

function present(row: Selectable<WebhookDeliveryTable>): Static<typeof WebhookDelivery> {
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

const DeliveryListQuery = ListQuery({
  search: false,
  filters: {
    event: Type.String({ maxLength: 64 }),
    status: StringEnum(['pending', 'delivered', 'failed'] as const),
    subject_id: Uuid(),
  },
});

/** A user reads the log of events about its own things; an administrator reads the whole PBX's. */
function deliveries(ctx: AppContext, tenant: Tenant, principal: UserPrincipal) {
  let query = ctx.db.selectFrom('webhook_deliveries').where('pbx_id', '=', tenant.pbxId);
  if (principal.role !== 'admin') query = query.where('user_id', '=', principal.userId);
  return query;
}

/** The delivery log of outgoing webhooks and the signing secret to verify them. */
export async function webhookRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.addSchema(WebhookDelivery);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/webhooks/deliveries', {
    config: USER,
    schema: { tags, operationId: 'listWebhookDeliveries', summary: 'Delivery log of outgoing webhooks, newest first', querystring: DeliveryListQuery, response: { 200: Paginated(Type.Ref(WebhookDelivery)) } },
    handler: async (request) => {
      const query = request.query as { page?: number; perPage?: number; 'filter[event]'?: string; 'filter[status]'?: 'pending' | 'delivered' | 'failed'; 'filter[subject_id]'?: string };
      const page = pageRequest(query);
      const base = () => {
        let q = deliveries(ctx, tenantOfRequest(request), userPrincipalOf(request));
        if (query['filter[event]']) q = q.where('event', '=', query['filter[event]']);
        if (query['filter[status]']) q = q.where('status', '=', query['filter[status]']);
        if (query['filter[subject_id]']) q = q.where('subject_id', '=', query['filter[subject_id]']);
        return q;
      };
      const { rows, total } = await fetchPage(base, (q) => q.selectAll(), [{ field: 'created_at', direction: 'desc' }], page);
      return paginate(rows.map(present), total, page, `${ctx.config.baseUrl}/webhooks/deliveries`, query);
    },
  });

  r.get('/webhooks/deliveries/:delivery', {
    config: USER,
    schema: { tags, operationId: 'getWebhookDelivery', summary: 'One webhook delivery', params: Type.Object({ delivery: Type.String({ pattern: '^msg_[0-9a-f]{32}$' }) }), response: { 200: DataEnvelope(Type.Ref(WebhookDelivery)) } },
    handler: async (request) => {
      const row = await deliveries(ctx, tenantOfRequest(request), userPrincipalOf(request)).selectAll().where('id', '=', request.params.delivery).executeTakeFirst();
      if (!row) throw new NotFound('Webhook delivery not found.');
      return { data: present(row) };
    },
  });

  r.get('/webhooks/signing-secret', {
    config: USER,
    schema: {
      tags,
      operationId: 'getWebhookSigningSecret',
      summary: "The PBX's Standard Webhooks secret, to verify webhook-signature",
      description: 'Each message carries webhook-id, webhook-timestamp and webhook-signature (v1,<base64 HMAC-SHA256 of "id.timestamp.body">), as the Standard Webhooks specification defines.',
      response: { 200: DataEnvelope(Type.Object({ secret: Type.String({ examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] }) })) },
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: { secret: signingSecret(ctx.config, tenantOfRequest(request).pbxId) } };
    },
  });
}
