import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import type { AuditEventRow } from './audit-events.queries.js';
import { AuditEvent, AuditEventListQuery, type AuditEventView } from './audit-events.schemas.js';
import { AuditEventsService } from './audit-events.service.js';

function presentAuditEvent(row: AuditEventRow): AuditEventView {
  return {
    id: row.id,
    action: row.action,
    subject_type: row.subject_type,
    subject_id: row.subject_id,
    principal_kind: row.principal_kind,
    principal_id: row.principal_id,
    user_id: row.user_id,
    request_id: row.request_id,
    details: JSON.parse(row.details) as AuditEventView['details'],
    created_at: row.created_at,
  };
}

/** The PBX's audit trail (platform/audit records it): who did what, when. */
export async function auditEventRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new AuditEventsService(ctx);
  const events = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Audit trail'],
    schema: AuditEvent,
    present: (rows: AuditEventRow[]) => rows.map(presentAuditEvent),
  });

  events.list('/audit-events', {
    auth: { user: 'admin' },
    operationId: 'listAuditEvents',
    summary: "The PBX's audit trail, newest first (administrators)",
    description:
      'Security-relevant changes, each with who made it (principal kind and id, and the user behind a user token), what (action and subject), when, and the request id. ' +
      'Entries never hold secrets. Actions so far: `webhook_signing_secret.rotated`. 422 for an unknown sort field, a malformed date, or `filter[to]` before `filter[from]`.',
    querystring: AuditEventListQuery,
    defaultSort: [{ field: 'created_at', direction: 'desc' }],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(
        tenant,
        { action: query['filter[action]'], userId: query['filter[user_id]'], from: query['filter[from]'], to: query['filter[to]'] },
        sort,
        page,
      ),
  });
}
