import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { AppContext } from '../../../platform/context.js';
import { ValidationFailed } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { listAuditEvents, type AuditEventRow } from './audit-events.queries.js';

export type { AuditEventRow };

export interface AuditEventQuery {
  action?: string;
  userId?: string;
  from?: string;
  to?: string;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * A date or a time of the query as an instant: a date's start for `from`; for `to`, the instant
 * just past it (the end of a date's day), so the bound is exclusive in the query.
 */
function instantOf(value: string, field: string, bound: 'from' | 'to'): string {
  const dateOnly = value.length === 10;
  const instant = new Date(dateOnly ? `${value}T00:00:00.000Z` : value);
  // Date() rolls 2026-02-31 over into March: a real date reads back the same.
  if (Number.isNaN(instant.getTime()) || (dateOnly && instant.toISOString().slice(0, 10) !== value))
    throw ValidationFailed.field(field, `The ${field} is not a valid date or time.`);
  if (bound === 'from') return instant.toISOString();
  return new Date(instant.getTime() + (dateOnly ? DAY_MS : 1)).toISOString();
}

/** The tenant's audit trail, for its administrators. */
export class AuditEventsService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, query: AuditEventQuery, sort: SortTerm[], page: PageRequest): Promise<{ rows: AuditEventRow[]; total: number }> {
    const from = query.from ? instantOf(query.from, 'filter[from]', 'from') : undefined;
    const before = query.to ? instantOf(query.to, 'filter[to]', 'to') : undefined;
    if (from && before && before <= from) throw ValidationFailed.field('filter[to]', 'The filter[to] must be a date after or equal to filter[from].');
    return listAuditEvents(this.ctx.db, tenant, { action: query.action, userId: query.userId, from, before }, sort, page);
  }
}
