import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import type { Tenant } from '../tenancy.js';
import type { Executor } from '../../db/database.js';

/** Facts worth keeping beside an action (a window length, a changed field's name): never a secret, a token or a password. */
export type AuditDetails = Record<string, string | number | boolean | null>;

export interface AuditRecord {
  tenant: Tenant;
  principal: Principal;
  /** `<subject>.<verb>` in the past tense, e.g. `webhook_signing_secret.rotated`. */
  action: string;
  subject: { type: string; id: string | null };
  details?: AuditDetails;
  requestId?: string | null;
}

/**
 * Appends an entry to the tenant's audit trail. Pass the transaction that makes the change, so the
 * entry exists exactly when the change does.
 */
export async function recordAudit(db: Executor, clock: Clock, record: AuditRecord): Promise<string> {
  const id = randomUUID();
  const { principal } = record;
  await db
    .insertInto('audit_events')
    .values({
      id,
      pbx_id: record.tenant.pbxId,
      action: record.action,
      subject_type: record.subject.type,
      subject_id: record.subject.id,
      principal_kind: principal.kind,
      principal_id: principal.id,
      user_id: principal.kind === 'user' ? principal.userId : null,
      request_id: record.requestId ?? null,
      details: JSON.stringify(record.details ?? {}),
      created_at: clock.now().toISOString(),
    })
    .execute();
  return id;
}
