import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { ApiKeyKind, ApiKeyTable, DB } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { generateToken, sha256, tokenHint, type SecretBox } from '../crypto.js';

const TOKEN_KIND = { pbx: 'pbx', integration: 'integration', internal: 'internal', pbx_server: 'pbx_server' } as const;

/** Starts the name of every operator-wide internal key, so each listing of keys says what it can reach. */
export const OPERATOR_WIDE_MARK = '[operator-wide] ';

/** The name with the mark, within the column's 255 characters. */
export function operatorWideName(name: string): string {
  return (name.startsWith(OPERATOR_WIDE_MARK) ? name : `${OPERATOR_WIDE_MARK}${name}`).slice(0, 255);
}

export interface NewApiKey {
  /** The PBX the key acts for; null only for an operator-wide internal key. */
  pbxId: string | null;
  kind: ApiKeyKind;
  name: string;
  scopes?: string[];
  createdByUserId?: string | null;
  expiresAt?: string | null;
  /** An internal key serving every PBX (`pbxId` null). Only the CLI asks for one, explicitly. */
  operatorWide?: boolean;
}

/**
 * Creates a key and returns its token once. Only the hash is used to authenticate; integration
 * keys also keep the token sealed with the server key so their owner can reveal it again. Every
 * key acts for one PBX, internal keys included, unless it is an operator-wide internal key.
 */
export async function createApiKey(db: Kysely<DB>, clock: Clock, secrets: SecretBox, key: NewApiKey): Promise<{ row: Selectable<ApiKeyTable>; token: string }> {
  const operatorWide = key.operatorWide === true;
  if (operatorWide && (key.kind !== 'internal' || key.pbxId)) throw new Error('only an internal key without a PBX can be operator-wide');
  if (!operatorWide && !key.pbxId) throw new Error(`a ${key.kind} key belongs to a PBX`);
  const token = generateToken(TOKEN_KIND[key.kind]);
  const now = clock.now().toISOString();
  const row: Selectable<ApiKeyTable> = {
    id: randomUUID(),
    pbx_id: operatorWide ? null : key.pbxId,
    kind: key.kind,
    name: operatorWide ? operatorWideName(key.name) : key.name,
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

/** Keys as the operator lists them (`pbx-api api-key list`): never a token, and whether each serves every PBX. */
export async function listApiKeys(db: Kysely<DB>, filters: { pbxId?: string; kind?: ApiKeyKind; revoked?: boolean } = {}) {
  let query = db
    .selectFrom('api_keys')
    .select(['id', 'kind', 'pbx_id', 'name', 'token_hint', 'scopes', 'created_at', 'expires_at', 'revoked_at'])
    .orderBy('created_at')
    .orderBy('id');
  if (filters.pbxId) query = query.where('pbx_id', '=', filters.pbxId);
  if (filters.kind) query = query.where('kind', '=', filters.kind);
  if (filters.revoked !== undefined) query = query.where('revoked_at', filters.revoked ? 'is not' : 'is', null);
  const rows = await query.execute();
  return rows.map((row) => ({ ...row, scopes: JSON.parse(row.scopes) as string[], operator_wide: row.pbx_id === null }));
}
