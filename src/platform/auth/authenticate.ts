import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { tenantDataCache, type StampedCache } from '../cache/stamped-cache.js';
import type { AppContext } from '../context.js';
import { sha256, tokenKind, type TokenKind } from '../crypto.js';
import type { Principal } from './principal.js';
import { findActiveApiKey, findActiveUserToken } from './auth.queries.js';

/** `Bearer <token>`, or a bare key (the ApiKeyAuth scheme puts the key itself in the header). */
export function tokenFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  // The common case, checked without trimming or capturing.
  if (header.startsWith('Bearer ')) {
    const token = header.slice(7);
    if (token !== '' && !/\s/.test(token)) return token;
  }
  const match = /^(?:Bearer\s+)?(\S+)$/i.exec(header.trim());
  return match ? match[1] : null;
}

export interface ResolvedToken {
  principal: Principal;
  /** Epoch milliseconds, or null for a token that does not expire. */
  expiresAt: number | null;
}

/** Active tokens kept in memory, by digest; a generous bound for the tokens one instance serves at once. */
const CACHED_TOKENS = 20_000;

/**
 * Turns a token into its principal. A token resolved once is kept in memory (by its digest, never
 * in clear) until its tenant's data changes (a logout, a revoked key, a disabled user all do) or
 * `ttlMs` passes, so the common request costs no database round trip; unknown tokens are never kept.
 */
export class Authenticator {
  private readonly cache: StampedCache<ResolvedToken>;
  private readonly db: Kysely<DB>;

  constructor(private readonly ctx: Pick<AppContext, 'db' | 'changes' | 'config' | 'clock'>) {
    this.db = ctx.db;
    this.cache = tenantDataCache(ctx, CACHED_TOKENS);
  }

  /** The principal, or null when the token is malformed, unknown, expired or revoked; synchronous when cached. */
  resolve(token: string): Principal | null | Promise<Principal | null> {
    // Looked up by its SHA-256 digest: timing can reveal at most a digest prefix, never the token.
    const digest = sha256(token);
    const cached = this.cache.get(digest);
    if (cached !== undefined) {
      // Several instances: first catch up with the tenant's writes made elsewhere (one Redis read).
      const refreshed = this.ctx.changes.refresh(cached.principal.pbxId);
      if (refreshed === false) return this.unexpired(cached); // only well-formed tokens were kept
      return refreshed.then((moved) => (moved ? this.uncached(token, digest) : this.unexpired(cached)));
    }
    return this.uncached(token, digest);
  }

  private uncached(token: string, digest: string): Promise<Principal | null> | null {
    const kind = tokenKind(token);
    if (!kind) return null; // the checksum rejects typos and guesses without touching the database
    return this.lookup(kind, digest);
  }

  private unexpired(resolved: ResolvedToken): Principal | null {
    return resolved.expiresAt !== null && resolved.expiresAt <= this.ctx.clock.nowMs() ? null : resolved.principal;
  }

  private async lookup(kind: TokenKind, digest: string): Promise<Principal | null> {
    const stamp = this.cache.stamp();
    const resolved = await storedCredential(this.db, kind, digest);
    if (!resolved) return null;
    // The request's other cached reads (its profile) then stand on the tenant's latest writes too.
    await this.ctx.changes.refresh(resolved.principal.pbxId);
    this.cache.set(digest, resolved.principal.pbxId, stamp, resolved);
    return this.unexpired(resolved);
  }
}

/**
 * The principal of a stored, active credential, by its kind and digest, with when it expires (epoch
 * milliseconds, or null): what a token resolves to. A stream ticket (modules/events) resolves the
 * credential it was issued for this way when it is used.
 */
export async function storedCredential(db: Kysely<DB>, kind: TokenKind, digest: string): Promise<ResolvedToken | null> {
  if (kind === 'user') {
    const row = await findActiveUserToken(db, digest);
    if (!row || row.status !== 'active') return null;
    return resolved(
      { kind: 'user', id: row.token_id, userId: row.user_id, pbxId: row.pbx_id, role: row.role, tokenId: row.token_id, rateLimit: row.rate_limit_per_minute },
      row.expires_at,
    );
  }
  const key = await findActiveApiKey(db, digest);
  if (!key || key.kind !== kind) return null;
  const rateLimit = key.rate_limit_per_minute ?? null;
  switch (key.kind) {
    case 'internal':
      return resolved({ kind: 'internal', id: key.id, pbxId: key.pbx_id, rateLimit }, key.expires_at);
    case 'integration':
      return resolved({ kind: 'integration', id: key.id, pbxId: key.pbx_id!, scopes: JSON.parse(key.scopes) as string[], rateLimit }, key.expires_at);
    case 'pbx':
      return resolved({ kind: 'pbx', id: key.id, pbxId: key.pbx_id!, rateLimit }, key.expires_at);
    case 'pbx_server':
      return resolved({ kind: 'pbx_server', id: key.id, pbxId: key.pbx_id!, rateLimit }, key.expires_at);
  }
}

/** Shared by every request holding the token, so frozen. */
function resolved(principal: Principal, expiresAt: string | null): ResolvedToken {
  return { principal: Object.freeze(principal), expiresAt: expiresAt === null ? null : Date.parse(expiresAt) };
}
