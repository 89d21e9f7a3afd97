import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../db/paging.js';
import type { UserPrincipal } from '../../../platform/auth/principal.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { DeliveryStatus, WebhookDeliveryTable } from '../../../platform/webhooks/webhooks.tables.js';
import { DELIVERY_SORTS } from './webhooks.schemas.js';

export type DeliveryRow = Selectable<WebhookDeliveryTable>;

export interface DeliveryFilters {
  event?: string;
  status?: DeliveryStatus;
  subjectId?: string;
}

/** What selects deliveries: the tenant, the reader's user id unless it is an administrator, and each filter that is set. */
interface DeliveryScope {
  pbxId: string;
  userId?: string;
  event?: string;
  status?: DeliveryStatus;
  subjectId?: string;
}

function deliveriesOf(db: Kysely<DB>, scope: DeliveryScope) {
  let query = db.selectFrom('webhook_deliveries').where('pbx_id', '=', scope.pbxId);
  if (scope.userId) query = query.where('user_id', '=', scope.userId);
  if (scope.event) query = query.where('event', '=', scope.event);
  if (scope.status) query = query.where('status', '=', scope.status);
  if (scope.subjectId) query = query.where('subject_id', '=', scope.subjectId);
  return query;
}

/** A user reads the log of events about its own things; an administrator reads the whole PBX's. */
function seenBy(tenant: Tenant, reader: UserPrincipal): DeliveryScope {
  return { pbxId: tenant.pbxId, userId: reader.role === 'admin' ? undefined : reader.userId };
}

const deliveryPage = pagedQuery({ scoped: deliveriesOf, columns: (query) => query.selectAll(), nullsLast: ['delivered_at'] });

const SORTABLE: ReadonlySet<string> = new Set(DELIVERY_SORTS);

/** A page of the log, sorted by the declared sort fields only (the list schema refuses others with 422; this never orders by another column). */
export function listDeliveries(db: Kysely<DB>, tenant: Tenant, reader: UserPrincipal, filters: DeliveryFilters, sort: SortTerm[], page: PageRequest) {
  return deliveryPage(
    db,
    { ...seenBy(tenant, reader), ...filters },
    sort.filter((term) => SORTABLE.has(term.field)),
    page,
  );
}

export function findDelivery(db: Kysely<DB>, tenant: Tenant, reader: UserPrincipal, id: string) {
  return deliveriesOf(db, seenBy(tenant, reader)).selectAll().where('id', '=', id).executeTakeFirst();
}
