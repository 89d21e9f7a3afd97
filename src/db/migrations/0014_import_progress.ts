import type { Kysely } from 'kysely';

/** The data rows of an import's file, counted when processing starts, so clients can show progress. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('contact_imports').addColumn('total_rows', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('contact_imports').dropColumn('total_rows').execute();
}
