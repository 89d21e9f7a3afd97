import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Tenant } from '../../platform/tenancy.js';

export function findProfileRow(db: Kysely<DB>, tenant: Tenant, userId: string) {
  return db
    .selectFrom('users as u')
    .innerJoin('pbxes as p', 'p.id', 'u.pbx_id')
    .selectAll('u')
    .select(['p.name as pbx_name', 'p.country_code as pbx_country_code', 'p.timezone as pbx_timezone', 'p.plan as pbx_plan'])
    .where('u.id', '=', userId)
    .where('u.pbx_id', '=', tenant.pbxId)
    .where('u.deleted_at', 'is', null)
    .executeTakeFirst();
}

export type ProfileRow = NonNullable<Awaited<ReturnType<typeof findProfileRow>>>;
