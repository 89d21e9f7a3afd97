import type { AuditEventRow } from './audit-events.queries.js';
import type { AuditEventView } from './audit-events.schemas.js';

/** An audit entry as the contract shows it: its details parsed from their stored JSON. */
export function presentAuditEvent(row: AuditEventRow): AuditEventView {
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
