import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { ClientError, ValidationFailed } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/clock.js';

/** How long a first answer is replayed. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

/** JSON with sorted keys, so two equal requests hash alike whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function requestHash(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('hex');
}

export interface IdempotencyClaim {
  pbxId: string;
  userId: string;
  scope: string;
  key: string;
  hash: string;
}

export type ClaimOutcome = { kind: 'new' } | { kind: 'replay'; status: number; body: unknown };

/**
 * Claims a key in the database, so it holds across instances: the first request gets `new`; a
 * retry gets the stored answer; the same key with another request is refused (422), and one
 * that arrives while the first is still running gets 409. An expired key is taken over.
 */
export async function claimKey(db: Kysely<DB>, clock: Clock, claim: IdempotencyClaim): Promise<ClaimOutcome> {
  const now = clock.now();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await db
        .insertInto('idempotency_keys')
        .values({
          pbx_id: claim.pbxId,
          user_id: claim.userId,
          scope: claim.scope,
          key: claim.key,
          request_hash: claim.hash,
          response_status: null,
          response_body: null,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_SECONDS * 1000).toISOString(),
        })
        .execute();
      return { kind: 'new' };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const row = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', claim.userId)
      .where('scope', '=', claim.scope)
      .where('key', '=', claim.key)
      .executeTakeFirst();
    if (!row) continue;
    if (row.expires_at <= now.toISOString()) {
      await db
        .deleteFrom('idempotency_keys')
        .where('user_id', '=', claim.userId)
        .where('scope', '=', claim.scope)
        .where('key', '=', claim.key)
        .where('expires_at', '=', row.expires_at)
        .execute();
      continue;
    }
    if (row.request_hash !== claim.hash) {
      throw ValidationFailed.field('Idempotency-Key', 'This Idempotency-Key was already used with a different request.');
    }
    if (row.response_status === null || row.response_body === null) {
      throw new ClientError(409, 'A request with this Idempotency-Key is still being processed; retry shortly.');
    }
    return { kind: 'replay', status: row.response_status, body: JSON.parse(row.response_body) as unknown };
  }
  throw new ClientError(409, 'A request with this Idempotency-Key is still being processed; retry shortly.');
}

/** Stores the answer to replay. */
export async function completeKey(db: Kysely<DB>, claim: IdempotencyClaim, status: number, body: unknown): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ response_status: status, response_body: JSON.stringify(body) })
    .where('user_id', '=', claim.userId)
    .where('scope', '=', claim.scope)
    .where('key', '=', claim.key)
    .execute();
}

/** Frees the key when nothing was done, so the request may be retried for real. */
export async function releaseKey(db: Kysely<DB>, claim: IdempotencyClaim): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('user_id', '=', claim.userId)
    .where('scope', '=', claim.scope)
    .where('key', '=', claim.key)
    .where('response_status', 'is', null)
    .execute();
}
