import type { Updateable } from 'kysely';
import type { PbxTable } from '../../../../db/schema.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { NameOrder } from '../full-name.js';
import type { Executor } from '../../../../db/database.js';

/** The workforce's settings of a tenant, kept on its PBX row. */
export function findSettings(db: Executor, tenant: Tenant) {
  return db.selectFrom('pbxes').select(['name_order', 'half_day_split', 'timezone']).where('id', '=', tenant.pbxId).executeTakeFirst();
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
