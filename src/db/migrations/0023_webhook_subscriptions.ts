import { PostgresAdapter, type Kysely } from 'kysely';

const ts = 'varchar(32)';
const uuid = 'varchar(36)';

/**
 * Webhook subscriptions (platform/webhooks/subscriptions.ts): a tenant's live events delivered to a
 * URL, and each tenant's dispatch cursor, the last event number turned into deliveries. A delivery's
 * subject is now an event's subject, whose id is text (an import's was a uuid): PostgreSQL widens
 * the column; SQLite never checked its length.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_subscriptions')
    .addColumn('id', uuid, (c) => c.primaryKey())
    .addColumn('pbx_id', uuid, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('user_id', uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('kinds', 'text', (c) => c.notNull())
    .addColumn('subject_type', 'varchar(64)')
    .addColumn('subject_id', 'text')
    .addColumn('description', 'varchar(255)')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('after_seq', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  // The list (newest first) and the dispatch (a tenant's active ones) read by tenant.
  await db.schema.createIndex('webhook_subscriptions_pbx_idx').on('webhook_subscriptions').columns(['pbx_id', 'created_at']).execute();
  await db.schema
    .createTable('webhook_dispatch_cursors')
    .addColumn('pbx_id', uuid, (c) => c.primaryKey().references('pbxes.id').onDelete('cascade'))
    .addColumn('last_seq', 'integer', (c) => c.notNull())
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.schema
      .alterTable('webhook_deliveries')
      .alterColumn('subject_id', (c) => c.setDataType('text'))
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_dispatch_cursors').ifExists().execute();
  await db.schema.dropTable('webhook_subscriptions').ifExists().execute();
}
