import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Tenant } from './tenancy.js';
import { InUse, type Usage } from './errors.js';

type TableColumns = Map<string, Set<string>>;
const introspected = new Map<string, Promise<TableColumns>>();

/**
 * Table name -> columns, read once per dialect (tables only change with migrations, and every
 * database is migrated to the latest before use): a transaction is a handle of its own, so keying
 * by handle would read the catalogue on every transaction.
 */
function tablesOf(db: Kysely<DB>): Promise<TableColumns> {
  const key = db.getExecutor().adapter.constructor.name;
  let tables = introspected.get(key);
  if (!tables) {
    tables = (async () => {
      const list = await db.introspection.getTables();
      // PostgreSQL lists every schema's tables; keep those of the schema this connection works in.
      const current = list.some((t) => t.schema) ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
      return new Map(list.filter((t) => !current || t.schema === current).map((t) => [t.name, new Set(t.columns.map((c) => c.name))]));
    })();
    introspected.set(key, tables);
  }
  return tables;
}

/**
 * Whether `id` names a live row of `table` in the tenant's PBX. Resources point at resources of
 * other domains (a contact at a call flow, a phone number at a queue) without importing them; a
 * table that does not exist has no rows, so nothing of it can be referenced.
 */
export async function existsInPbx(db: Kysely<DB>, tenant: Tenant, table: string, id: string): Promise<boolean> {
  const columns = (await tablesOf(db)).get(table);
  if (!columns || !columns.has('id') || !columns.has('pbx_id')) return false;
  const live = columns.has('deleted_at') ? sql` and deleted_at is null` : sql``;
  const result = await sql<{ one: number }>`select 1 as one from ${sql.table(table)} where id = ${id} and pbx_id = ${tenant.pbxId}${live}`.execute(db);
  return result.rows.length > 0;
}

/** What can be pointed at across domains, and so may not be deleted while something points at it. */
export type ReferencedKind = 'sound_file' | 'ivr' | 'call_flow' | 'queue' | 'user' | 'extension';

/** Lists what, in one domain, points at a resource of another. */
export type UsageFinder = (db: Kysely<DB>, tenant: Tenant, kind: ReferencedKind, id: string) => Promise<Usage[]>;

const finders: UsageFinder[] = [];

/**
 * Called at import time by each domain that points at others' resources (routing, the directory's
 * phone numbers, the address book), so the owner of a resource can ask who uses it without
 * importing its users (they sit above it).
 */
export function defineUsageFinder(finder: UsageFinder): void {
  finders.push(finder);
}

export async function findUsages(db: Kysely<DB>, tenant: Tenant, kind: ReferencedKind, id: string): Promise<Usage[]> {
  const found = await Promise.all(finders.map((find) => find(db, tenant, kind, id)));
  return found.flat();
}

/** 409 `{message, used_by}` when anything still points at the resource. */
export async function refuseWhileUsed(db: Kysely<DB>, tenant: Tenant, kind: ReferencedKind, id: string, what: string): Promise<void> {
  const usages = await findUsages(db, tenant, kind, id);
  if (usages.length === 0) return;
  const names = usages.slice(0, 3).map((u) => `${u.type.replace(/_/g, ' ')} "${u.name}"`);
  const more = usages.length > 3 ? ` and ${usages.length - 3} more` : '';
  throw new InUse(`The ${what} is still used by ${names.join(', ')}${more}.`, usages);
}

/**
 * Serialises, per tenant, the writes that add references (routing) with the deletes that check
 * them: PostgreSQL locks the PBX's row until the transaction ends; SQLite writes one at a time.
 */
export async function lockReferences(trx: Kysely<DB>, dialect: 'sqlite' | 'postgres', tenant: Tenant): Promise<void> {
  if (dialect === 'postgres') await sql`select id from pbxes where id = ${tenant.pbxId} for update`.execute(trx);
}
