import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { reusableQuery } from '../../db/reusable-query.js';

/** The user token with what authorisation needs, in one indexed lookup (compiled once: it runs on every request). */
const activeUserToken = reusableQuery((db, tokenHash: string) =>
  db
    .selectFrom('access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .innerJoin('pbxes as p', 'p.id', 'u.pbx_id')
    .select(['t.id as token_id', 't.expires_at', 'u.id as user_id', 'u.pbx_id', 'u.role', 'u.status', 'p.rate_limit_per_minute'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null)
    .where('u.deleted_at', 'is', null),
);

const activeApiKey = reusableQuery((db, tokenHash: string) =>
  db
    .selectFrom('api_keys as k')
    .leftJoin('pbxes as p', 'p.id', 'k.pbx_id')
    .select(['k.id', 'k.kind', 'k.pbx_id', 'k.scopes', 'k.expires_at', 'p.rate_limit_per_minute'])
    .where('k.token_hash', '=', tokenHash)
    .where('k.revoked_at', 'is', null),
);

export async function findActiveUserToken(db: Kysely<DB>, tokenHash: string) {
  return (await activeUserToken(db, tokenHash))[0];
}

export async function findActiveApiKey(db: Kysely<DB>, tokenHash: string) {
  return (await activeApiKey(db, tokenHash))[0];
}
