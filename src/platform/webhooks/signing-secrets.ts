import { createHmac, randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { SecretBox } from '../crypto.js';
import { ClientError } from '../errors.js';
import type { Executor } from '../../db/database.js';

/** What a PBX's webhook deliveries are signed with at a given moment. */
export interface SigningSecrets {
  /** The secret receivers should verify with. */
  current: string;
  /** The secret `current` replaced, still signing beside it until `previousExpiresAt`; null once the window is over. */
  previous: string | null;
  previousExpiresAt: string | null;
  /** When `current` replaced another; null while the PBX still has its first secret. */
  rotatedAt: string | null;
}

/**
 * A PBX's first secret (`whsec_` + base64 key): derived from the server key, so nothing is stored
 * before the first rotation, and receivers that fetched it before rotation existed keep verifying.
 */
function initialSecret(config: Pick<Config, 'secretKey'>, pbxId: string): string {
  return `whsec_${createHmac('sha256', config.secretKey).update(`webhook-signing:${pbxId}`).digest('base64')}`;
}

function findRow(db: Executor, pbxId: string) {
  return db.selectFrom('webhook_signing_secrets').selectAll().where('pbx_id', '=', pbxId).executeTakeFirst();
}

/** The secrets that sign a delivery sent at `at`: the current one, and the previous one while its window lasts. */
export async function signingSecretsOf(db: Executor, box: SecretBox, config: Pick<Config, 'secretKey'>, pbxId: string, at: Date): Promise<SigningSecrets> {
  const row = await findRow(db, pbxId);
  if (!row) return { current: initialSecret(config, pbxId), previous: null, previousExpiresAt: null, rotatedAt: null };
  const overlapping = row.previous_secret_sealed !== null && row.previous_expires_at !== null && row.previous_expires_at > at.toISOString();
  return {
    current: box.open(row.secret_sealed),
    previous: overlapping ? box.open(row.previous_secret_sealed!) : null,
    previousExpiresAt: overlapping ? row.previous_expires_at : null,
    rotatedAt: row.rotated_at,
  };
}

/** The `webhook-signature` header value: one `v1,<signature>` per secret, space-separated, as Standard Webhooks allows. */
export function signaturesOf(secrets: SigningSecrets, sign: (secret: string) => string): string {
  return [secrets.current, ...(secrets.previous ? [secrets.previous] : [])].map(sign).join(' ');
}

/**
 * Replaces the PBX's secret with a new random one. The replaced secret keeps signing beside it for
 * `overlapSeconds` (0 ends it at once, for a leaked secret); a secret replaced earlier stops at
 * once. Two rotations at the same moment cannot both win: the later one is a 409.
 */
export async function rotateSigningSecret(
  db: Executor,
  box: SecretBox,
  config: Pick<Config, 'secretKey'>,
  pbxId: string,
  now: Date,
  overlapSeconds: number,
): Promise<SigningSecrets> {
  const row = await findRow(db, pbxId);
  const replaced = row ? box.open(row.secret_sealed) : initialSecret(config, pbxId);
  const current = `whsec_${randomBytes(32).toString('base64')}`;
  const previousExpiresAt = overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000).toISOString() : null;
  const values = {
    secret_sealed: box.seal(current),
    previous_secret_sealed: previousExpiresAt ? box.seal(replaced) : null,
    previous_expires_at: previousExpiresAt,
    rotated_at: now.toISOString(),
  };
  // Compare-and-set on the sealed secret read above (its random IV makes it unique to that rotation).
  const written = row
    ? (
        await db
          .updateTable('webhook_signing_secrets')
          .set(values)
          .where('pbx_id', '=', pbxId)
          .where('secret_sealed', '=', row.secret_sealed)
          .executeTakeFirst()
      ).numUpdatedRows
    : (
        await db
          .insertInto('webhook_signing_secrets')
          .values({ pbx_id: pbxId, ...values })
          .onConflict((oc) => oc.column('pbx_id').doNothing())
          .executeTakeFirst()
      ).numInsertedOrUpdatedRows;
  if (!written) throw new ClientError(409, 'The signing secret was rotated by another request at the same moment; fetch it again.');
  return { current, previous: previousExpiresAt ? replaced : null, previousExpiresAt, rotatedAt: values.rotated_at };
}
