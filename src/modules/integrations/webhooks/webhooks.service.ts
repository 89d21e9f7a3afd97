import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { AppContext } from '../../../platform/context.js';
import type { UserPrincipal } from '../../../platform/auth/principal.js';
import { NotFound } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { findDelivery, listDeliveries, type DeliveryFilters, type DeliveryRow } from './webhooks.queries.js';

export type { DeliveryRow };

/** The delivery log of outgoing webhooks: an administrator reads the PBX's, any other user the deliveries about its own things. */
export class WebhookDeliveriesService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, reader: UserPrincipal, filters: DeliveryFilters, sort: SortTerm[], page: PageRequest) {
    return listDeliveries(this.ctx.db, tenant, reader, filters, sort, page);
  }

  async get(tenant: Tenant, reader: UserPrincipal, id: string): Promise<DeliveryRow> {
    const row = await findDelivery(this.ctx.db, tenant, reader, id);
    if (!row) throw new NotFound('Webhook delivery not found.');
    return row;
  }
}
