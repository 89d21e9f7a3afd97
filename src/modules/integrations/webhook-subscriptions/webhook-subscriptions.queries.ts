import type { Kysely, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Executor } from '../../../db/database.js';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../db/paging.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { WebhookSubscriptionTable } from '../../../platform/webhooks/webhooks.tables.js';
import { SUBSCRIPTION_SORTS } from './webhook-subscriptions.schemas.js';

export interface SubscriptionFilters {
  active?: boolean;
}

/** What selects subscriptions: the tenant, and the active state when filtered. */
interface SubscriptionScope {
  pbxId: string;
  active?: number;
}

/**
 * The API's subscriptions: those a record made for itself (a contact import's webhook, `owner_kind`)
 * are that record's to manage, and are neither listed nor read, changed or deleted here.
 */
function subscriptionsOf(db: Kysely<DB>, scope: SubscriptionScope) {
  let query = db.selectFrom('webhook_subscriptions').where('pbx_id', '=', scope.pbxId).where('owner_kind', 'is', null);
  if (scope.active !== undefined) query = query.where('active', '=', scope.active);
  return query;
}

const subscriptionPage = pagedQuery({ scoped: subscriptionsOf, columns: (query) => query.selectAll() });

const SORTABLE: ReadonlySet<string> = new Set(SUBSCRIPTION_SORTS);

export function listSubscriptions(db: Kysely<DB>, tenant: Tenant, filters: SubscriptionFilters, sort: SortTerm[], page: PageRequest) {
  const active = filters.active === undefined ? undefined : filters.active ? 1 : 0;
  return subscriptionPage(
    db,
    { pbxId: tenant.pbxId, active },
    sort.filter((term) => SORTABLE.has(term.field)),
    page,
  );
}

export function findSubscription(db: Executor, tenant: Tenant, id: string) {
  return db
    .selectFrom('webhook_subscriptions')
    .selectAll()
    .where('pbx_id', '=', tenant.pbxId)
    .where('id', '=', id)
    .where('owner_kind', 'is', null)
    .executeTakeFirst();
}

export async function updateSubscription(db: Executor, tenant: Tenant, id: string, changes: Updateable<WebhookSubscriptionTable>): Promise<void> {
  await db.updateTable('webhook_subscriptions').set(changes).where('pbx_id', '=', tenant.pbxId).where('id', '=', id).where('owner_kind', 'is', null).execute();
}

export async function deleteSubscription(db: Executor, tenant: Tenant, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhook_subscriptions')
    .where('pbx_id', '=', tenant.pbxId)
    .where('id', '=', id)
    .where('owner_kind', 'is', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
