import type { SigningSecrets } from '../../../platform/webhooks/signing-secrets.js';
import type { SigningSecretView } from './webhooks.schemas.js';

/** The PBX's signing secrets as the contract shows them, with the overlap window that applies. */
export function presentSigningSecret(secrets: SigningSecrets, overlapSeconds: number): SigningSecretView {
  return {
    secret: secrets.current,
    rotated_at: secrets.rotatedAt,
    previous_secret_expires_at: secrets.previousExpiresAt,
    overlap_seconds: overlapSeconds,
  };
}
