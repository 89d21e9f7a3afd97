import type { Kysely } from 'kysely';

const ts = 'varchar(32)';
const uuid = 'varchar(36)';
const callTime = 'varchar(19)';

/**
 * Call detail records, their participants and recordings, placed calls, idempotency keys and the
 * AMI connection settings. The list reads newest first by keyset (start_time, cdr_id), so every
 * list index leads with the tenant and ends with start time and id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cdrs')
    .addColumn('pbx_id', uuid, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('cdr_id', 'bigint', (c) => c.notNull())
    .addColumn('type', 'varchar(8)', (c) => c.notNull())
    .addColumn('status', 'varchar(8)', (c) => c.notNull())
    .addColumn('start_time', callTime, (c) => c.notNull())
    .addColumn('answer_time', callTime)
    .addColumn('end_time', callTime, (c) => c.notNull())
    .addColumn('duration', 'integer', (c) => c.notNull())
    .addColumn('billsec', 'integer', (c) => c.notNull())
    .addColumn('is_transfer_call', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_internal', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_conference_call', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('has_recording', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('caller_user_id', uuid)
    .addColumn('caller_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('caller_number', 'varchar(64)', (c) => c.notNull())
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('receivers', 'text', (c) => c.notNull())
    .addColumn('call_flow', 'text', (c) => c.notNull())
    .addColumn('conference', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('transcriptions', 'text')
    .addColumn('ai_processing_errors', 'text', (c) => c.notNull())
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('cdrs_pkey', ['pbx_id', 'cdr_id'])
    .execute();
  await db.schema.createIndex('cdrs_start_idx').on('cdrs').columns(['pbx_id', 'start_time', 'cdr_id']).execute();
  await db.schema.createIndex('cdrs_status_idx').on('cdrs').columns(['pbx_id', 'status', 'start_time', 'cdr_id']).execute();
  await db.schema.createIndex('cdrs_type_idx').on('cdrs').columns(['pbx_id', 'type', 'start_time', 'cdr_id']).execute();
  await db.schema.createIndex('cdrs_internal_idx').on('cdrs').columns(['pbx_id', 'is_internal', 'start_time', 'cdr_id']).execute();
  await db.schema.createIndex('cdrs_recording_idx').on('cdrs').columns(['pbx_id', 'has_recording', 'start_time', 'cdr_id']).execute();

  await db.schema
    .createTable('cdr_participants')
    .addColumn('pbx_id', uuid, (c) => c.notNull())
    .addColumn('cdr_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', uuid, (c) => c.notNull())
    .addColumn('start_time', callTime, (c) => c.notNull())
    .addPrimaryKeyConstraint('cdr_participants_pkey', ['pbx_id', 'cdr_id', 'user_id'])
    .addForeignKeyConstraint('cdr_participants_cdr_fk', ['pbx_id', 'cdr_id'], 'cdrs', ['pbx_id', 'cdr_id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('cdr_participants_user_idx').on('cdr_participants').columns(['pbx_id', 'user_id', 'start_time', 'cdr_id']).execute();

  await db.schema
    .createTable('cdr_recordings')
    .addColumn('pbx_id', uuid, (c) => c.notNull())
    .addColumn('cdr_id', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('path', 'varchar(255)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('cdr_recordings_pkey', ['pbx_id', 'cdr_id', 'kind'])
    .addForeignKeyConstraint('cdr_recordings_cdr_fk', ['pbx_id', 'cdr_id'], 'cdrs', ['pbx_id', 'cdr_id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('cdr_recordings_path_unique').on('cdr_recordings').columns(['pbx_id', 'path']).unique().execute();

  await db.schema
    .createTable('placed_calls')
    .addColumn('id', uuid, (c) => c.primaryKey())
    .addColumn('pbx_id', uuid, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('user_id', uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('engine', 'varchar(16)', (c) => c.notNull())
    .addColumn('destination', 'varchar(64)', (c) => c.notNull())
    .addColumn('caller_identity_id', uuid)
    .addColumn('action_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('uniqueid', 'varchar(64)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('endpoints', 'text', (c) => c.notNull())
    .addColumn('reason', 'varchar(255)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('placed_calls_uniqueid_idx').on('placed_calls').columns(['pbx_id', 'uniqueid']).execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('pbx_id', uuid, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('user_id', uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scope', 'varchar(64)', (c) => c.notNull())
    .addColumn('key', 'varchar(255)', (c) => c.notNull())
    .addColumn('request_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['user_id', 'scope', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expiry_idx').on('idempotency_keys').column('expires_at').execute();

  await db.schema
    .createTable('ami_settings')
    .addColumn('pbx_id', uuid, (c) => c.primaryKey().references('pbxes.id').onDelete('cascade'))
    .addColumn('host', 'varchar(255)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('username', 'varchar(255)', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('context', 'varchar(80)', (c) => c.notNull().defaultTo('from-internal'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['ami_settings', 'idempotency_keys', 'placed_calls', 'cdr_recordings', 'cdr_participants', 'cdrs']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
