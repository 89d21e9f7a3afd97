import type { Kysely } from 'kysely';

const ID = 'varchar(36)';
const TS = 'varchar(32)';

/**
 * The AMI engine against a real Asterisk (issue #20): a placed call learns its history record and
 * where its end is announced; AMI settings carry the PBX host's time zone and the listener's login
 * failures; the legs of one Asterisk call (its Cdr events) are kept until merged into one record.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('placed_calls').addColumn('cdr_id', 'varchar(20)').execute();
  await db.schema.alterTable('placed_calls').addColumn('webhook_url', 'varchar(2048)').execute();
  await db.schema.alterTable('placed_calls').addColumn('ended_at', TS).execute();

  await db.schema.alterTable('ami_settings').addColumn('pbx_timezone', 'varchar(64)').execute();
  await db.schema
    .alterTable('ami_settings')
    .addColumn('login_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('ami_settings').addColumn('failing_since', TS).execute();
  await db.schema.alterTable('ami_settings').addColumn('last_error', 'varchar(255)').execute();

  await db.schema
    .createTable('ami_cdr_legs')
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('call_key', 'varchar(80)', (c) => c.notNull())
    .addColumn('uniqueid', 'varchar(80)', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('created_at', TS, (c) => c.notNull())
    .addPrimaryKeyConstraint('ami_cdr_legs_pkey', ['pbx_id', 'uniqueid'])
    .execute();
  await db.schema.createIndex('ami_cdr_legs_call_idx').on('ami_cdr_legs').columns(['pbx_id', 'call_key']).execute();
  await db.schema.createIndex('placed_calls_pbx_user_idx').on('placed_calls').columns(['pbx_id', 'user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('placed_calls_pbx_user_idx').ifExists().execute();
  await db.schema.dropTable('ami_cdr_legs').ifExists().execute();
  for (const column of ['last_error', 'failing_since', 'login_failures', 'pbx_timezone']) {
    await db.schema.alterTable('ami_settings').dropColumn(column).execute();
  }
  for (const column of ['ended_at', 'webhook_url', 'cdr_id']) await db.schema.alterTable('placed_calls').dropColumn(column).execute();
}
