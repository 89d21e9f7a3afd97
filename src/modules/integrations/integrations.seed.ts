import type { Principal } from '../../platform/auth/principal.js';
import type { DemoSeeder } from '../../platform/demo-seeder.js';
import { SigningSecretService } from './webhooks/signing-secret.service.js';

/**
 * The integrations of one demo tenant: its admin has rotated the webhook signing secret once, so
 * the audit trail (`GET /audit-events`) shows an entry and the secret answer its overlap window.
 */
export const seedIntegrations: DemoSeeder = async (ctx, demo) => {
  const admin: Principal = { kind: 'user', id: 'demo-seed', userId: demo.admin.id, pbxId: demo.pbxId, role: 'admin', tokenId: 'demo-seed', rateLimit: null };
  const { auditEventId } = await new SigningSecretService(ctx).rotate({ pbxId: demo.pbxId }, admin, null);
  return { audit_event: auditEventId };
};
