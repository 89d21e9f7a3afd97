import { Type, type Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { Uuid } from '../../../http/schema.js';
import { ValidationFailed } from '../../../platform/errors.js';

/** A user as embedded in other resources (`include=user`). */
export const UserSummary = Type.Object({ id: Uuid(), first_name: Type.String(), last_name: Type.String(), email: Type.String({ format: 'email' }) });
export type UserSummaryView = Static<typeof UserSummary>;

/** Summaries of the tenant's users by id, for embedding. */
export async function userSummaries(db: Kysely<DB>, tenant: Tenant, ids: Array<string | null>): Promise<Map<string, UserSummaryView>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** `user_id` in a body must name a live user of the same PBX. */
export async function assertTenantUser(db: Kysely<DB>, tenant: Tenant, userId: string, field = 'user_id'): Promise<void> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .where('pbx_id', '=', tenant.pbxId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw ValidationFailed.field(field, `The selected ${field.replace(/_/g, ' ')} is invalid.`);
}
