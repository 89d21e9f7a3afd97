import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { AUDIT_EVENTS_DOCS } from './audit-events.docs.js';
import { presentAuditEvent } from './audit-events.presenter.js';
import { AuditEvent, AuditEventListQuery } from './audit-events.schemas.js';
import { AuditEventsService, type AuditEventRow } from './audit-events.service.js';

/** The PBX's audit trail (platform/audit records it): who did what, when. */
export async function auditEventRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new AuditEventsService(ctx);
  const events = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Audit trail'],
    docs: AUDIT_EVENTS_DOCS,
    schema: AuditEvent,
    present: (rows: AuditEventRow[]) => rows.map(presentAuditEvent),
  });

  events.list('/audit-events', {
    auth: { user: 'admin' },
    operationId: 'listAuditEvents',
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
