import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Usage } from '../../platform/errors.js';
import { defineUsageFinder, type ReferencedKind } from '../../platform/references.js';
import type { Tenant } from '../../platform/tenancy.js';

/** Phone numbers routed to a user, an extension, or routing's call flows, IVRs and queues. */
async function phoneNumberUsages(db: Kysely<DB>, tenant: Tenant, kind: ReferencedKind, id: string): Promise<Usage[]> {
  if (kind === 'sound_file') return [];
  const rows = await db
    .selectFrom('phone_numbers')
    .select(['id', 'number'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('deleted_at', 'is', null)
    .where('destination_type', '=', kind)
    .where('destination_id', '=', id)
    .execute();
  return rows.map((row) => ({ type: 'phone_number', id: row.id, name: row.number, path: 'destination_id' }));
}

defineUsageFinder(phoneNumberUsages);
