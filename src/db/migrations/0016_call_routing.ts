import { PostgresAdapter, sql, type Kysely } from 'kysely';

const ID = 'varchar(36)';
const TS = 'varchar(32)';

/**
 * Call routing (modules/routing): sound files (metadata, and their audio in a table of its own),
 * IVR menus and steps (one live step per key of a menu), call flows with the references of their
 * nodes, queues and their members. Cross-resource targets are type + id, checked by the services.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema
    .createTable('sound_files')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('language', 'varchar(8)')
    .addColumn('format', 'varchar(8)', (c) => c.notNull())
    .addColumn('mime_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('sample_rate', 'integer')
    .addColumn('channels', 'integer')
    .addColumn('checksum_sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('original_filename', 'varchar(255)')
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  await db.schema.createIndex('sound_files_pbx_name_idx').on('sound_files').columns(['pbx_id', 'name']).execute();
  await db.schema
    .createTable('sound_file_contents')
    .addColumn('sound_file_id', ID, (c) => c.primaryKey().references('sound_files.id').onDelete('cascade'))
    .addColumn('content', bytes, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('ivrs')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('comment', 'varchar(255)')
    .addColumn('announcement_id', ID, (c) => c.notNull())
    .addColumn('music_on_hold_id', ID)
    .addColumn('announcement_language', 'varchar(8)')
    .addColumn('default_action', 'varchar(16)', (c) => c.notNull())
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('max_repeats', 'integer', (c) => c.notNull())
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  await db.schema.createIndex('ivrs_pbx_name_idx').on('ivrs').columns(['pbx_id', 'name']).execute();

  await db.schema
    .createTable('ivr_steps')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('ivr_id', ID, (c) => c.notNull().references('ivrs.id').onDelete('cascade'))
    .addColumn('option', 'varchar(8)', (c) => c.notNull())
    .addColumn('name', 'varchar(128)')
    .addColumn('target_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('target_id', ID, (c) => c.notNull())
    .addColumn('language', 'varchar(8)')
    .addColumn('voip_ivr_btn_id', 'integer')
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  // One live step per key of a menu; soft-deleted steps keep theirs.
  await db.schema
    .createIndex('ivr_steps_option_unique')
    .on('ivr_steps')
    .columns(['ivr_id', 'option'])
    .unique()
    .where(sql<boolean>`deleted_at is null`)
    .execute();
  await db.schema.createIndex('ivr_steps_target_idx').on('ivr_steps').columns(['pbx_id', 'target_id']).execute();

  await db.schema
    .createTable('call_flows')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('description', 'varchar(255)')
    .addColumn('entry', 'varchar(64)', (c) => c.notNull())
    .addColumn('nodes', 'text', (c) => c.notNull())
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  await db.schema.createIndex('call_flows_pbx_name_idx').on('call_flows').columns(['pbx_id', 'name']).execute();
  await db.schema
    .createTable('call_flow_references')
    .addColumn('call_flow_id', ID, (c) => c.notNull().references('call_flows.id').onDelete('cascade'))
    .addColumn('pbx_id', ID, (c) => c.notNull())
    .addColumn('target_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('target_id', ID, (c) => c.notNull())
    .addColumn('node_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('field', 'varchar(64)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('call_flow_references_target_idx').on('call_flow_references').columns(['pbx_id', 'target_id']).execute();
  await db.schema.createIndex('call_flow_references_flow_idx').on('call_flow_references').columns(['call_flow_id']).execute();

  await db.schema
    .createTable('queues')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('strategy', 'varchar(16)', (c) => c.notNull())
    .addColumn('max_wait_seconds', 'integer', (c) => c.notNull())
    .addColumn('max_callers', 'integer')
    .addColumn('member_timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('wrap_up_seconds', 'integer', (c) => c.notNull())
    .addColumn('music_on_hold_id', ID)
    .addColumn('announcement_id', ID)
    .addColumn('overflow_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('overflow_target_id', ID)
    .addColumn('overflow_number', 'varchar(24)')
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  await db.schema.createIndex('queues_pbx_name_idx').on('queues').columns(['pbx_id', 'name']).execute();
  await db.schema
    .createTable('queue_members')
    .addColumn('queue_id', ID, (c) => c.notNull().references('queues.id').onDelete('cascade'))
    .addColumn('pbx_id', ID, (c) => c.notNull())
    .addColumn('member_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('member_id', ID, (c) => c.notNull())
    .addColumn('penalty', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('queue_members_pk', ['queue_id', 'member_type', 'member_id'])
    .execute();
  await db.schema.createIndex('queue_members_member_idx').on('queue_members').columns(['pbx_id', 'member_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['queue_members', 'queues', 'call_flow_references', 'call_flows', 'ivr_steps', 'ivrs', 'sound_file_contents', 'sound_files']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
