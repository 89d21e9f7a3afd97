import type { AppContext } from '../../../platform/context.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { recordAudit } from '../../../platform/audit/audit.js';
import { rotateSigningSecret, signingSecretsOf } from '../../../platform/webhooks/signing-secrets.js';
import { presentSigningSecret } from './signing-secret.presenter.js';
import type { SigningSecretView } from './webhooks.schemas.js';

const SECRET_ROTATED = 'webhook_signing_secret.rotated';

/** The PBX's webhook signing secret: read by its administrators, rotated with an overlap window, each rotation audited. */
export class SigningSecretService {
  constructor(private readonly ctx: AppContext) {}

  async current(tenant: Tenant): Promise<SigningSecretView> {
    const secrets = await signingSecretsOf(this.ctx.db, this.ctx.secrets, this.ctx.config, tenant.pbxId, this.ctx.clock.now());
    return presentSigningSecret(secrets, this.ctx.config.webhookSecretOverlapSeconds);
  }

  /** The new secret, and the audit entry that records the rotation (in the same transaction). */
  async rotate(
    tenant: Tenant,
    principal: Principal,
    requestId: string | null,
    overlapSeconds = this.ctx.config.webhookSecretOverlapSeconds,
  ): Promise<{ secret: SigningSecretView; auditEventId: string }> {
    const now = this.ctx.clock.now();
    const { rotated, auditEventId } = await this.ctx.db.transaction().execute(async (trx) => {
      const rotated = await rotateSigningSecret(trx, this.ctx.secrets, this.ctx.config, tenant.pbxId, now, overlapSeconds);
      const auditEventId = await recordAudit(trx, this.ctx.clock, {
        tenant,
        principal,
        action: SECRET_ROTATED,
        subject: { type: 'webhook_signing_secret', id: tenant.pbxId },
        details: { overlap_seconds: overlapSeconds, previous_secret_expires_at: rotated.previousExpiresAt },
        requestId,
      });
      return { rotated, auditEventId };
    });
    return { secret: presentSigningSecret(rotated, overlapSeconds), auditEventId };
  }
}
