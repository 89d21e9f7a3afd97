import type { Updateable } from 'kysely';
import type { PbxTable } from '../../../../db/schema.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { NameOrder } from '../full-name.js';
import type { Executor } from '../../../../db/database.js';
import { reusableQuery } from '../../../../db/reusable-query.js';

/** Compiled once per database: the tenant's today (its time zone) is read on most workforce requests. */
const settingsOf = reusableQuery((db, pbxId: string) => db.selectFrom('pbxes').select(['name_order', 'half_day_split', 'timezone']).where('id', '=', pbxId));

/** The workforce's settings of a tenant, kept on its PBX row. */
export async function findSettings(db: Executor, tenant: Tenant) {
  return (await settingsOf(db, tenant.pbxId))[0];
}
export type SettingsRow = NonNullable<Awaited<ReturnType<typeof findSettings>>>;

/** The tenant's name order, for every `fullName` and the default sort of people. */
export async function nameOrderOf(db: Executor, tenant: Tenant): Promise<NameOrder> {
  return (await findSettings(db, tenant))?.name_order ?? 'first_last';
}

export async function updateSettings(
  db: Executor,
  tenant: Tenant,
  changes: Pick<Updateable<PbxTable>, 'name_order' | 'half_day_split' | 'updated_at'>,
): Promise<void> {
  await db.updateTable('pbxes').set(changes).where('id', '=', tenant.pbxId).execute();
}
