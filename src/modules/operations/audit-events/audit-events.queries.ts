import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { fetchPage, type PageRequest, type SortTerm } from '../../../db/paging.js';
import type { AuditEventTable } from '../../../platform/audit/audit.tables.js';
import type { Tenant } from '../../../platform/tenancy.js';

export type AuditEventRow = Selectable<AuditEventTable>;

export interface AuditEventFilters {
  action?: string;
  userId?: string;
  /** ISO instants: `from` inclusive, `before` exclusive. */
  from?: string;
  before?: string;
}

export function listAuditEvents(db: Kysely<DB>, tenant: Tenant, filters: AuditEventFilters, sort: SortTerm[], page: PageRequest) {
  const filtered = () => {
    let query = db.selectFrom('audit_events').where('pbx_id', '=', tenant.pbxId);
    if (filters.action) query = query.where('action', '=', filters.action);
    if (filters.userId) query = query.where('user_id', '=', filters.userId);
    if (filters.from) query = query.where('created_at', '>=', filters.from);
    if (filters.before) query = query.where('created_at', '<', filters.before);
    return query;
  };
  return fetchPage(filtered, (query) => query.selectAll(), sort, page);
}
