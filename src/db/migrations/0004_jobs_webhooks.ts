import type { Kysely } from 'kysely';

const ts = 'varchar(32)';
const uuid = 'varchar(36)';

/** Durable background jobs, and the log of outgoing webhook deliveries. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', uuid, (c) => c.primaryKey())
    .addColumn('kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', ts, (c) => c.notNull())
    .addColumn('locked_by', 'varchar(64)')
    .addColumn('locked_until', ts)
    .addColumn('last_error', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('completed_at', ts)
    .execute();
  // The claim query looks for due pending jobs and expired leases.
  await db.schema.createIndex('jobs_due_idx').on('jobs').columns(['status', 'run_at']).execute();
  await db.schema.createIndex('jobs_lease_idx').on('jobs').columns(['status', 'locked_until']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', uuid, (c) => c.primaryKey())
    .addColumn('pbx_id', uuid, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('user_id', uuid, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('event', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject_id', uuid, (c) => c.notNull())
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('response_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('delivered_at', ts)
    .execute();
  await db.schema.createIndex('webhook_deliveries_pbx_idx').on('webhook_deliveries').columns(['pbx_id', 'created_at']).execute();
  await db.schema.createIndex('webhook_deliveries_subject_idx').on('webhook_deliveries').columns(['subject_type', 'subject_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').ifExists().execute();
  await db.schema.dropTable('jobs').ifExists().execute();
}
