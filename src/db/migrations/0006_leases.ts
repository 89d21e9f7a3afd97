import type { Kysely } from 'kysely';

/** Named leases: one instance at a time does a piece of long-running work (e.g. listening to a PBX's AMI events). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('leases')
    .addColumn('name', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(128)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('leases').execute();
}
