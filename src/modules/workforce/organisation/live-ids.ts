import type { Executor } from '../../../db/database.js';
import type { Tenant } from '../../../platform/tenancy.js';

/** Ids among `ids` that are live rows of the tenant's companies, departments or employees (a schedule's scope names them). */
export async function liveIdsIn(db: Executor, tenant: Tenant, table: 'companies' | 'departments' | 'employees', ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom(table)
    .select('id')
    .where('pbx_id', '=', tenant.pbxId)
    .where('deleted_at', 'is', null)
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((row) => row.id));
}
