import type { Kysely } from 'kysely';

const ts = 'varchar(32)';
const uuid = 'varchar(36)';

/**
 * Live events (platform/events): the outbox every stream and webhook subscription reads, and each
 * tenant's last event number. `publish` takes the next number by upserting the tenant's counter in
 * the change's own transaction, so numbers are gapless and commit in order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_counters')
    .addColumn('pbx_id', uuid, (c) => c.primaryKey().references('pbxes.id').onDelete('cascade'))
    .addColumn('last_seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('events')
    .addColumn('pbx_id', uuid, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('audience', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('events_pk', ['pbx_id', 'seq'])
    .execute();
  // Pruning deletes what is older than the retention, across tenants.
  await db.schema.createIndex('events_created_idx').on('events').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('events').ifExists().execute();
  await db.schema.dropTable('event_counters').ifExists().execute();
}
