import type { Kysely } from 'kysely';

const ts = 'varchar(32)';

/** Rotated webhook signing secrets, sealed, with the replaced one kept for the overlap window (platform/webhooks). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_signing_secrets')
    .addColumn('pbx_id', 'varchar(36)', (c) => c.primaryKey().references('pbxes.id').onDelete('cascade'))
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('previous_secret_sealed', 'text')
    .addColumn('previous_expires_at', ts)
    .addColumn('rotated_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_signing_secrets').ifExists().execute();
}
