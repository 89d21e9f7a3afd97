import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';

type TableColumns = Map<string, Set<string>>;
const introspected = new WeakMap<object, Promise<TableColumns>>();

/** Table name -> columns, read once per database handle (tables only change with migrations). */
function tablesOf(db: Kysely<DB>): Promise<TableColumns> {
  let tables = introspected.get(db);
  if (!tables) {
    tables = (async () => {
      const list = await db.introspection.getTables();
      // PostgreSQL lists every schema's tables; keep those of the schema this connection works in.
      const current = list.some((t) => t.schema) ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
      return new Map(list.filter((t) => !current || t.schema === current).map((t) => [t.name, new Set(t.columns.map((c) => c.name))]));
    })();
    introspected.set(db, tables);
  }
  return tables;
}

/**
 * Whether `id` names a live row of `table` in the tenant's PBX. Contacts point at resources of
 * other modules (call flows, extensions, SIP devices, caller identities); a resource whose table
 * does not exist yet has no rows, so nothing of it can be referenced.
 */
export async function existsInPbx(db: Kysely<DB>, tenant: Tenant, table: string, id: string): Promise<boolean> {
  const columns = (await tablesOf(db)).get(table);
  if (!columns || !columns.has('id') || !columns.has('pbx_id')) return false;
  const live = columns.has('deleted_at') ? sql` and deleted_at is null` : sql``;
  const result = await sql<{ one: number }>`select 1 as one from ${sql.table(table)} where id = ${id} and pbx_id = ${tenant.pbxId}${live}`.execute(db);
  return result.rows.length > 0;
}
