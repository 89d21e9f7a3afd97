import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { generateToken, sha256 } from '../crypto.js';
import type { Executor } from '../../db/database.js';

/** Creates a user token; only its hash is kept, the token itself is returned once. */
export async function issueUserToken(
  db: Executor,
  clock: Clock,
  user: { id: string; pbx_id: string },
  options: { name: string; ttlSeconds: number | null },
): Promise<string> {
  const token = generateToken('user');
  const now = clock.now();
  await db
    .insertInto('access_tokens')
    .values({
      id: randomUUID(),
      user_id: user.id,
      pbx_id: user.pbx_id,
      token_hash: sha256(token),
      name: options.name,
      expires_at: options.ttlSeconds ? new Date(now.getTime() + options.ttlSeconds * 1000).toISOString() : null,
      revoked_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  return token;
}

export async function revokeUserToken(db: Executor, clock: Clock, tokenId: string): Promise<void> {
  await db.updateTable('access_tokens').set({ revoked_at: clock.now().toISOString() }).where('id', '=', tokenId).where('revoked_at', 'is', null).execute();
}

/** Used when a user is disabled or deleted: every token it holds stops working at once. */
export async function revokeAllUserTokens(db: Executor, clock: Clock, userId: string): Promise<void> {
  await db.updateTable('access_tokens').set({ revoked_at: clock.now().toISOString() }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}
