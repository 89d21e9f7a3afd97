import type { Updateable } from 'kysely';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { UserPrincipal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import { collectFieldErrors, NotFound, ValidationFailed } from '../../../platform/errors.js';
import { eventKinds } from '../../../platform/events/index.js';
import { unknownKindPatterns } from '../../../platform/events/kind-patterns.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { insertWebhookSubscription, subscriptionStart, type WebhookSubscriptionRow } from '../../../platform/webhooks/subscriptions.js';
import { assertPublicUrl } from '../../../platform/webhooks/url-guard.js';
import type { WebhookSubscriptionTable } from '../../../platform/webhooks/webhooks.tables.js';
import { deleteSubscription, findSubscription, listSubscriptions, updateSubscription, type SubscriptionFilters } from './webhook-subscriptions.queries.js';
import type { CreateWebhookSubscriptionInput, UpdateWebhookSubscriptionInput } from './webhook-subscriptions.schemas.js';

export type { WebhookSubscriptionRow };

type Filters = NonNullable<CreateWebhookSubscriptionInput['filters']>;

/**
 * A PBX's webhook subscriptions, managed by its administrators; each belongs to the administrator
 * who created it and receives what that user may read (platform/webhooks/subscriptions.ts).
 */
export class WebhookSubscriptionsService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, filters: SubscriptionFilters, sort: SortTerm[], page: PageRequest) {
    return listSubscriptions(this.ctx.db, tenant, filters, sort, page);
  }

  async get(tenant: Tenant, id: string): Promise<WebhookSubscriptionRow> {
    const row = await findSubscription(this.ctx.db, tenant, id);
    if (!row) throw new NotFound('Webhook subscription not found.');
    return row;
  }

  async create(tenant: Tenant, owner: UserPrincipal, body: CreateWebhookSubscriptionInput): Promise<WebhookSubscriptionRow> {
    await this.check(body);
    return this.ctx.db.transaction().execute((trx) =>
      insertWebhookSubscription(trx, this.ctx.clock, {
        pbxId: tenant.pbxId,
        userId: owner.userId,
        url: body.url,
        kinds: body.kinds,
        subjectType: body.filters?.subject_type,
        subjectId: body.filters?.subject_id,
        description: body.description,
      }),
    );
  }

  /** Changes what is given; `filters` replaces both filters; resuming (active false to true) starts from the events committed from then on. */
  async update(tenant: Tenant, id: string, body: UpdateWebhookSubscriptionInput): Promise<WebhookSubscriptionRow> {
    await this.get(tenant, id);
    await this.check(body);
    return this.ctx.db.transaction().execute(async (trx) => {
      const row = await findSubscription(trx, tenant, id);
      if (!row) throw new NotFound('Webhook subscription not found.');
      const changes: Updateable<WebhookSubscriptionTable> = { updated_at: this.ctx.clock.now().toISOString() };
      if (body.url !== undefined) changes.url = body.url;
      if (body.kinds !== undefined) changes.kinds = JSON.stringify(body.kinds);
      if (body.filters !== undefined) {
        changes.subject_type = body.filters.subject_type ?? null;
        changes.subject_id = body.filters.subject_id ?? null;
      }
      if (body.description !== undefined) changes.description = body.description;
      if (body.active !== undefined) {
        changes.active = body.active ? 1 : 0;
        if (body.active && row.active !== 1) changes.after_seq = await subscriptionStart(trx, tenant.pbxId);
      }
      await updateSubscription(trx, tenant, id, changes);
      return { ...row, ...changes };
    });
  }

  /** Deliveries already stored for it are still sent (and logged); no new ones are made. */
  async remove(tenant: Tenant, id: string): Promise<void> {
    if (!(await deleteSubscription(this.ctx.db, tenant, id))) throw new NotFound('Webhook subscription not found.');
  }

  /** Every given field's checks at once (one 422 naming each bad field). */
  private check(body: { url?: string; kinds?: string[]; filters?: Filters }): Promise<void> {
    return collectFieldErrors([
      async () => {
        if (body.url !== undefined) await this.checkUrl(body.url);
      },
      async () => {
        const unknown = unknownKindPatterns(body.kinds ?? []);
        if (unknown.length > 0) throw ValidationFailed.field('kinds', `Unknown event kinds: ${unknown.join(', ')}.`);
      },
      async () => {
        const type = body.filters?.subject_type;
        if (type !== undefined && !eventKinds().some((kind) => kind.subject === type)) {
          throw ValidationFailed.field('filters.subject_type', `No event is about a subject of type ${type}.`);
        }
      },
    ]);
  }

  private async checkUrl(url: string): Promise<void> {
    try {
      await assertPublicUrl(url, this.ctx.config.webhookAllowPrivate);
    } catch (error) {
      throw ValidationFailed.field('url', `The url is not allowed: ${(error as Error).message}.`);
    }
  }
}
