import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { ClientError, ValidationFailed } from '../errors.js';

/** How long a first answer is replayed. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

/** JSON with sorted keys, so two equal requests hash alike whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * What makes two requests the same: the method, the route, and the params, query and body as
 * validated (an upload's body is the digest of its parts). Params are left out when the route has
 * none, so `POST /calls/new`'s fingerprints are those its own store made before 0026 (which
 * hashed `{query, body}`), and the migration could carry its live keys over.
 */
export function requestFingerprint(method: string, route: string, input: { params?: unknown; query?: unknown; body?: unknown }): string {
  const params = input.params && typeof input.params === 'object' && Object.keys(input.params).length > 0 ? input.params : undefined;
  return fingerprintOf(method, route, sha256(canonicalJson({ params, query: input.query, body: input.body })));
}

/** The fingerprint from the digest of the request's input (migration 0026 writes the carried-over keys' this way). */
export function fingerprintOf(method: string, route: string, inputDigest: string): string {
  return sha256(`${method} ${route}\n${inputDigest}`);
}

/** Whose key it is: every token of one user shares its keys; an API key has its own. */
export function principalKey(principal: Principal): { pbxId: string; principal: string } {
  return { pbxId: principal.pbxId ?? '', principal: principal.kind === 'user' ? `user:${principal.userId}` : `api-key:${principal.id}` };
}

export interface IdempotencyClaim {
  pbxId: string;
  principal: string;
  key: string;
  fingerprint: string;
}

/** The answer replayed: status, body as sent, and the headers that go with it. */
export interface StoredAnswer {
  status: number;
  body: string;
  /** The body is sealed (the http layer seals the answers of routes that carry a secret). */
  sealed: boolean;
  contentType: string | null;
  location: string | null;
}

export type ClaimOutcome = { kind: 'new' } | { kind: 'replay'; answer: StoredAnswer };

export const STILL_RUNNING = 'A request with this Idempotency-Key is still being processed; retry shortly.';
export const OTHER_REQUEST = 'This Idempotency-Key was already used with a different request.';

/**
 * Claims a key in the database, so every instance agrees: the first request gets `new`; a retry
 * gets the stored answer; the same key with another request is refused (422 on the field
 * `Idempotency-Key`), and one that arrives while the first is still running gets 409. An expired
 * key is taken over.
 */
export async function claimKey(db: Kysely<DB>, clock: Clock, claim: IdempotencyClaim): Promise<ClaimOutcome> {
  const now = clock.now();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await db
        .insertInto('idempotency_records')
        .values({
          pbx_id: claim.pbxId,
          principal: claim.principal,
          key: claim.key,
          fingerprint: claim.fingerprint,
          response_status: null,
          response_body: null,
          content_type: null,
          location: null,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_SECONDS * 1000).toISOString(),
        })
        .execute();
      return { kind: 'new' };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const row = await db
      .selectFrom('idempotency_records')
      .selectAll()
      .where('pbx_id', '=', claim.pbxId)
      .where('principal', '=', claim.principal)
      .where('key', '=', claim.key)
      .executeTakeFirst();
    if (!row) continue;
    if (row.expires_at <= now.toISOString()) {
      await db
        .deleteFrom('idempotency_records')
        .where('pbx_id', '=', claim.pbxId)
        .where('principal', '=', claim.principal)
        .where('key', '=', claim.key)
        .where('expires_at', '=', row.expires_at)
        .execute();
      continue;
    }
    if (row.fingerprint !== claim.fingerprint) throw ValidationFailed.field('Idempotency-Key', OTHER_REQUEST);
    if (row.response_status === null || row.response_body === null) throw new ClientError(409, STILL_RUNNING);
    const answer = { status: row.response_status, body: row.response_body, sealed: row.sealed === 1, contentType: row.content_type, location: row.location };
    return { kind: 'replay', answer };
  }
  throw new ClientError(409, STILL_RUNNING);
}

/** Stores the answer to replay. */
export async function completeKey(db: Kysely<DB>, claim: IdempotencyClaim, answer: StoredAnswer): Promise<void> {
  await db
    .updateTable('idempotency_records')
    .set({
      response_status: answer.status,
      response_body: answer.body,
      sealed: answer.sealed ? 1 : 0,
      content_type: answer.contentType,
      location: answer.location,
    })
    .where('pbx_id', '=', claim.pbxId)
    .where('principal', '=', claim.principal)
    .where('key', '=', claim.key)
    .where('fingerprint', '=', claim.fingerprint)
    .execute();
}

/** Frees the key when nothing was done, so the request may be retried for real. */
export async function releaseKey(db: Kysely<DB>, claim: IdempotencyClaim): Promise<void> {
  await db
    .deleteFrom('idempotency_records')
    .where('pbx_id', '=', claim.pbxId)
    .where('principal', '=', claim.principal)
    .where('key', '=', claim.key)
    .where('fingerprint', '=', claim.fingerprint)
    .where('response_status', 'is', null)
    .execute();
}

/** Deletes the keys past their 24 hours, across tenants (the background pruning's); answers how many. */
export async function purgeExpiredKeys(db: Kysely<DB>, clock: Clock): Promise<number> {
  const result = await db.deleteFrom('idempotency_records').where('expires_at', '<=', clock.now().toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
