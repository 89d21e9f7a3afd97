import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { sha256, tokenKind } from '../crypto.js';
import type { Principal } from './principal.js';
import { findActiveApiKey, findActiveUserToken } from './auth.queries.js';

/** `Bearer <token>`, or a bare key (the ApiKeyAuth scheme puts the key itself in the header). */
export function tokenFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^(?:Bearer\s+)?(\S+)$/i.exec(header.trim());
  return match ? match[1] : null;
}

/** The principal a token stands for, or null when it is malformed, unknown, expired or revoked. */
export async function authenticate(db: Kysely<DB>, clock: Clock, token: string): Promise<Principal | null> {
  const kind = tokenKind(token);
  if (!kind) return null; // the checksum rejects typos and guesses without touching the database
  // Looked up by its SHA-256 digest: timing can reveal at most a digest prefix, never the token.
  const hash = sha256(token);
  const now = clock.now().toISOString();
  if (kind === 'user') {
    const row = await findActiveUserToken(db, hash);
    if (!row || row.status !== 'active' || (row.expires_at && row.expires_at <= now)) return null;
    return { kind: 'user', id: row.token_id, userId: row.user_id, pbxId: row.pbx_id, role: row.role, tokenId: row.token_id, rateLimit: row.rate_limit_per_minute };
  }
  const key = await findActiveApiKey(db, hash);
  if (!key || key.kind !== kind || (key.expires_at && key.expires_at <= now)) return null;
  const rateLimit = key.rate_limit_per_minute ?? null;
  switch (key.kind) {
    case 'internal':
      return { kind: 'internal', id: key.id, pbxId: null, rateLimit: null };
    case 'integration':
      return { kind: 'integration', id: key.id, pbxId: key.pbx_id!, scopes: JSON.parse(key.scopes) as string[], rateLimit };
    case 'pbx':
      return { kind: 'pbx', id: key.id, pbxId: key.pbx_id!, rateLimit };
    case 'pbx_server':
      return { kind: 'pbx_server', id: key.id, pbxId: key.pbx_id!, rateLimit };
  }
}
