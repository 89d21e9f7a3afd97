import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { WEBHOOK_SUBSCRIPTIONS_DOCS } from './webhook-subscriptions.docs.js';
import { presentWebhookSubscription } from './webhook-subscriptions.presenter.js';
import { WebhookSubscriptionsService, type WebhookSubscriptionRow } from './webhook-subscriptions.service.js';
import {
  CreateWebhookSubscriptionBody,
  UpdateWebhookSubscriptionBody,
  WebhookSubscription,
  WebhookSubscriptionListQuery,
  WebhookSubscriptionParams,
} from './webhook-subscriptions.schemas.js';

const ADMIN = { user: 'admin' } as const;

/** Live events delivered as signed webhooks to the URLs a PBX's administrators subscribe. */
export async function webhookSubscriptionRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new WebhookSubscriptionsService(ctx);
  const subscriptions = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Webhook subscriptions'],
    docs: WEBHOOK_SUBSCRIPTIONS_DOCS,
    schema: WebhookSubscription,
    present: (rows: WebhookSubscriptionRow[]) => rows.map(presentWebhookSubscription),
  });

  subscriptions.list('/webhook-subscriptions', {
    auth: ADMIN,
    operationId: 'listWebhookSubscriptions',
    querystring: WebhookSubscriptionListQuery,
    defaultSort: [{ field: 'created_at', direction: 'desc' }],
    fetch: ({ tenant, query }, { sort, page }) => service.list(tenant, { active: query['filter[active]'] }, sort, page),
  });
  subscriptions.create('/webhook-subscriptions', {
    auth: ADMIN,
    operationId: 'createWebhookSubscription',
    body: CreateWebhookSubscriptionBody,
    run: ({ tenant, user, body }) => service.create(tenant, user, body),
  });
  subscriptions.read('/webhook-subscriptions/:subscription', {
    auth: ADMIN,
    operationId: 'getWebhookSubscription',
    params: WebhookSubscriptionParams,
    load: ({ tenant, params }) => service.get(tenant, params.subscription),
  });
  subscriptions.update('/webhook-subscriptions/:subscription', {
    auth: ADMIN,
    operationId: 'updateWebhookSubscription',
    params: WebhookSubscriptionParams,
    body: UpdateWebhookSubscriptionBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.subscription, body),
  });
  subscriptions.delete('/webhook-subscriptions/:subscription', {
    auth: ADMIN,
    operationId: 'deleteWebhookSubscription',
    params: WebhookSubscriptionParams,
    run: ({ tenant, params }) => service.remove(tenant, params.subscription),
  });
}
