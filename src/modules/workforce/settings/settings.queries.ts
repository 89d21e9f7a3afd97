import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB, PbxTable } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { NameOrder } from '../full-name.js';

type Db = Kysely<DB> | Transaction<DB>;

/** The workforce's settings of a tenant, kept on its PBX row. */
export function findSettings(db: Db, tenant: Tenant) {
  return db.selectFrom('pbxes').select(['name_order', 'half_day_split', 'timezone']).where('id', '=', tenant.pbxId).executeTakeFirst();
}
export type SettingsRow = NonNullable<Awaited<ReturnType<typeof findSettings>>>;

/** The tenant's name order, for every `fullName` and the default sort of people. */
export async function nameOrderOf(db: Db, tenant: Tenant): Promise<NameOrder> {
  return (await findSettings(db, tenant))?.name_order ?? 'first_last';
}

export async function updateSettings(
  db: Db,
  tenant: Tenant,
  changes: Pick<Updateable<PbxTable>, 'name_order' | 'half_day_split' | 'updated_at'>,
): Promise<void> {
  await db.updateTable('pbxes').set(changes).where('id', '=', tenant.pbxId).execute();
}
