import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { fetchPage, type PageRequest, type SortTerm } from '../../../db/paging.js';
import type { UserPrincipal } from '../../../platform/auth/principal.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { DeliveryStatus, WebhookDeliveryTable } from '../../../platform/webhooks/webhooks.tables.js';

export type DeliveryRow = Selectable<WebhookDeliveryTable>;

export interface DeliveryFilters {
  event?: string;
  status?: DeliveryStatus;
  subjectId?: string;
}

/** A user reads the log of events about its own things; an administrator reads the whole PBX's. */
function deliveriesSeenBy(db: Kysely<DB>, tenant: Tenant, reader: UserPrincipal) {
  const query = db.selectFrom('webhook_deliveries').where('pbx_id', '=', tenant.pbxId);
  return reader.role === 'admin' ? query : query.where('user_id', '=', reader.userId);
}

export function listDeliveries(db: Kysely<DB>, tenant: Tenant, reader: UserPrincipal, filters: DeliveryFilters, sort: SortTerm[], page: PageRequest) {
  const filtered = () => {
    let query = deliveriesSeenBy(db, tenant, reader);
    if (filters.event) query = query.where('event', '=', filters.event);
    if (filters.status) query = query.where('status', '=', filters.status);
    if (filters.subjectId) query = query.where('subject_id', '=', filters.subjectId);
    return query;
  };
  return fetchPage(filtered, (query) => query.selectAll(), sort, page);
}

export function findDelivery(db: Kysely<DB>, tenant: Tenant, reader: UserPrincipal, id: string) {
  return deliveriesSeenBy(db, tenant, reader).selectAll().where('id', '=', id).executeTakeFirst();
}
