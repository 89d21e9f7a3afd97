import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../db/paging.js';
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

/** What selects audit events: the tenant, and each filter that is set. */
interface AuditEventScope {
  pbxId: string;
  action?: string;
  userId?: string;
  from?: string;
  before?: string;
}

function auditEventsOf(db: Kysely<DB>, scope: AuditEventScope) {
  let query = db.selectFrom('audit_events').where('pbx_id', '=', scope.pbxId);
  if (scope.action) query = query.where('action', '=', scope.action);
  if (scope.userId) query = query.where('user_id', '=', scope.userId);
  if (scope.from) query = query.where('created_at', '>=', scope.from);
  if (scope.before) query = query.where('created_at', '<', scope.before);
  return query;
}

const auditEventPage = pagedQuery({ scoped: auditEventsOf, columns: (query) => query.selectAll() });

export function listAuditEvents(db: Kysely<DB>, tenant: Tenant, filters: AuditEventFilters, sort: SortTerm[], page: PageRequest) {
  return auditEventPage(db, { pbxId: tenant.pbxId, ...filters }, sort, page);
}
