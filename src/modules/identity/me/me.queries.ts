import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { profileDirectory } from '../../directory/index.js';
import { liveEmployeeId } from '../../workforce/index.js';

/** The user row with its PBX: all `/user` needs. */
export function findUserWithPbx(db: Kysely<DB>, tenant: Tenant, userId: string) {
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

/**
 * The profile row with the directory arrays `/me` shows (extensions, devices, groups, twinnings,
 * identities, WebRTC) and the user's employee: its link, but never a soft-deleted employee.
 */
export async function findProfileRow(db: Kysely<DB>, tenant: Tenant, userId: string) {
  const row = await findUserWithPbx(db, tenant, userId);
  if (!row) return undefined;
  const [directory, employeeId] = await Promise.all([profileDirectory(db, tenant, row), liveEmployeeId(db, tenant, row.employee_id)]);
  return { ...row, directory, employee_id: employeeId };
}

export type ProfileRow = NonNullable<Awaited<ReturnType<typeof findProfileRow>>>;
export type UserWithPbxRow = NonNullable<Awaited<ReturnType<typeof findUserWithPbx>>>;
