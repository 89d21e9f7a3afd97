import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { ApiKeyKind, ApiKeyTable, DB } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { generateToken, sha256, tokenHint, type SecretBox } from '../crypto.js';

const TOKEN_KIND = { pbx: 'pbx', integration: 'integration', internal: 'internal', pbx_server: 'pbx_server' } as const;

export interface NewApiKey {
  pbxId: string | null;
  kind: ApiKeyKind;
  name: string;
  scopes?: string[];
  createdByUserId?: string | null;
  expiresAt?: string | null;
}

/**
 * Creates a key and returns its token once. Only the hash is used to authenticate; integration
 * keys also keep the token sealed with the server key so their owner can reveal it again.
 */
export async function createApiKey(db: Kysely<DB>, clock: Clock, secrets: SecretBox, key: NewApiKey): Promise<{ row: Selectable<ApiKeyTable>; token: string }> {
  if (key.kind !== 'internal' && !key.pbxId) throw new Error(`a ${key.kind} key belongs to a PBX`);
  const token = generateToken(TOKEN_KIND[key.kind]);
  const now = clock.now().toISOString();
  const row: Selectable<ApiKeyTable> = {
    id: randomUUID(),
    pbx_id: key.kind === 'internal' ? null : key.pbxId,
    kind: key.kind,
    name: key.name,
    token_hash: sha256(token),
    token_hint: tokenHint(token),
    token_sealed: key.kind === 'integration' ? secrets.seal(token) : null,
    scopes: JSON.stringify(key.scopes ?? []),
    created_by_user_id: key.createdByUserId ?? null,
    expires_at: key.expiresAt ?? null,
    revoked_at: null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('api_keys').values(row).execute();
  return { row, token };
}

/** Revokes by id (any kind) or by the token itself; true when a key stopped working. */
export async function revokeApiKey(db: Kysely<DB>, clock: Clock, idOrToken: string): Promise<boolean> {
  const now = clock.now().toISOString();
  const byToken = idOrToken.startsWith('pbx');
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now, updated_at: now })
    .where(byToken ? 'token_hash' : 'id', '=', byToken ? sha256(idOrToken) : idOrToken)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
