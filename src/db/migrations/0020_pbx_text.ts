import type { Kysely } from 'kysely';

/** A table and its text columns this migration cleans, as the tables stood when it was written. */
interface Cleaned {
  table: string;
  columns: string[];
  /** Columns that may hold null: one left empty by the cleaning becomes null. */
  nullable?: string[];
  /** A unique index over (scope column, the cleaned column): a cleaned value taken already gets ` (2)`, ` (3)`, ... */
  uniqueWithin?: string;
}

/**
 * Every text column that reaches the PBX (its configuration files or an AMI action) and that the
 * API now refuses with a control character (`PbxText`, http/schema.ts). Numbers are not here: the
 * API stores them in E.164 (or as extension digits), so none holds one. Secrets are not here
 * either: they are sealed, so SQL cannot read them; the configuration dry run names the device or
 * account whose secret cannot be written.
 */
const CLEANED: Cleaned[] = [
  { table: 'users', columns: ['first_name', 'last_name'] },
  { table: 'extensions', columns: ['name'] },
  { table: 'sip_devices', columns: ['name'] },
  { table: 'phone_numbers', columns: ['label'], nullable: ['label'] },
  { table: 'caller_identities', columns: ['name'] },
  { table: 'user_groups', columns: ['name'], uniqueWithin: 'user_id' },
  { table: 'sound_files', columns: ['name'] },
  { table: 'ivrs', columns: ['name'] },
  { table: 'ivr_steps', columns: ['name'], nullable: ['name'] },
  { table: 'call_flows', columns: ['name'] },
  { table: 'queues', columns: ['name'] },
];

/** The characters PbxText refuses (http/schema.ts's PBX_CONTROL, as it stood when this was written). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/gu;
// eslint-disable-next-line no-control-regex
const HAS_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
const PAGE = 500;

/** A value as the API would now take it: each run of control characters one space, then trimmed. */
export function cleanPbxText(text: string): string {
  return text.replace(CONTROL, ' ').trim();
}

// Tables are named by the list above, not by a typed schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * A value with a line break (or another control character) in a name that reaches the PBX was
 * accepted until now; the compiler wrote it as a space, and an AMI action refused it. Such values
 * are cleaned as the compiler wrote them, so what the API shows is what the PBX has. Read in pages
 * by id and cleaned in JavaScript (SQLite has no regular expressions): the same on both dialects.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  const db = database as AnyDb;
  const now = new Date().toISOString();
  for (const { table, columns, nullable = [], uniqueWithin } of CLEANED) {
    let after = '';
    for (;;) {
      const rows = (await db
        .selectFrom(table)
        .select(['id', ...columns, ...(uniqueWithin ? [uniqueWithin] : [])])
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute()) as Array<Record<string, string | null>>;
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id!;
      for (const row of rows) {
        const changes: Record<string, string | null> = {};
        for (const column of columns) {
          const value = row[column];
          if (typeof value !== 'string' || !HAS_CONTROL.test(value)) continue;
          const cleaned = cleanPbxText(value);
          changes[column] = cleaned === '' && nullable.includes(column) ? null : cleaned;
        }
        if (Object.keys(changes).length === 0) continue;
        if (uniqueWithin)
          for (const column of columns) {
            const wanted = changes[column];
            if (typeof wanted === 'string') changes[column] = await freeName(db, table, column, uniqueWithin, row[uniqueWithin]!, row.id!, wanted);
          }
        await db
          .updateTable(table)
          .set({ ...changes, updated_at: now })
          .where('id', '=', row.id)
          .execute();
      }
    }
  }
}

/** `name`, or `name (2)`, `name (3)`, ... : the first another row of the same scope does not hold. */
async function freeName(db: AnyDb, table: string, column: string, scope: string, scopeValue: string, id: string, name: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${name.slice(0, 240)} (${n})`;
    const taken = await db.selectFrom(table).select('id').where(scope, '=', scopeValue).where(column, '=', candidate).where('id', '!=', id).executeTakeFirst();
    if (!taken) return candidate;
  }
}

/** Nothing to undo: a name with a space where a line break was works as before. */
export async function down(): Promise<void> {}
