import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * An import's uploaded file, kept in the database so that whichever instance claims the import's
 * job can read it (it used to live on the uploading instance's disk). Files are bounded by
 * IMPORT_MAX_BYTES (20 MB by default).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema
    .createTable('contact_import_files')
    .addColumn('import_id', 'varchar(36)', (c) => c.primaryKey().references('contact_imports.id').onDelete('cascade'))
    .addColumn('content', bytes, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('contact_import_files').ifExists().execute();
}
