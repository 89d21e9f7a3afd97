import type { Static } from '@sinclair/typebox';
import type { ApiKeyRow } from './api-keys.service.js';
import type { ApiKey } from './api-keys.schemas.js';

/** An integration key as the contract shows it: its scopes parsed, its token never (only `token_hint`). */
export function presentApiKey(row: ApiKeyRow): Static<typeof ApiKey> {
  return {
    id: row.id,
    name: row.name,
    scopes: JSON.parse(row.scopes) as Static<typeof ApiKey>['scopes'],
    token_hint: row.token_hint,
    created_by_user_id: row.created_by_user_id,
    created_at: row.created_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
  };
}
