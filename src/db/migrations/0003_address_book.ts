import { sql, type Kysely } from 'kysely';

const ts = 'varchar(32)';
const uuid = 'varchar(36)';

/** Contacts with their numbers, groups, favorites and blocks; contact imports with records and errors. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('contacts')
    .addColumn('id', uuid, (c) => c.primaryKey())
    .addColumn('pbx_id', uuid, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('name1', 'varchar(255)', (c) => c.notNull())
    .addColumn('name2', 'varchar(255)')
    .addColumn('email', 'varchar(255)')
    .addColumn('email_normalized', 'varchar(255)')
    .addColumn('company_name', 'varchar(255)')
    .addColumn('department', 'varchar(255)')
    .addColumn('job_title', 'varchar(255)')
    .addColumn('notes', 'text')
    .addColumn('vip', 'integer', (c) => c.notNull().defaultTo(0))
    // A private contact disappears with its owner rather than turning global.
    .addColumn('private_owner_id', uuid, (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('is_blocked_globally', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('handling_strategy', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('deleted_at', ts)
    .execute();
  await db.schema.createIndex('contacts_pbx_name_idx').on('contacts').columns(['pbx_id', 'name1', 'id']).execute();
  // Partial indexes (both dialects): only rows that have the value are indexed, which keeps bulk imports fast.
  await db.schema
    .createIndex('contacts_pbx_email_idx')
    .on('contacts')
    .columns(['pbx_id', 'email_normalized'])
    .where(sql.ref('email_normalized'), 'is not', null)
    .execute();
  await db.schema.createIndex('contacts_owner_idx').on('contacts').column('private_owner_id').where(sql.ref('private_owner_id'), 'is not', null).execute();

  await db.schema
    .createTable('contact_numbers')
    .addColumn('id', uuid, (c) => c.primaryKey())
    .addColumn('contact_id', uuid, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('pbx_id', uuid, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('phone_number_raw', 'varchar(64)', (c) => c.notNull())
    .addColumn('phone_number', 'varchar(24)', (c) => c.notNull())
    .addColumn('label', 'varchar(255)')
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('speed_dial', 'varchar(16)')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  // Caller lookup and import matching go through this index.
  await db.schema.createIndex('contact_numbers_lookup_idx').on('contact_numbers').columns(['pbx_id', 'phone_number']).execute();
  await db.schema.createIndex('contact_numbers_contact_idx').on('contact_numbers').columns(['contact_id', 'position']).execute();
  // Only numbers with a speed dial are in this index, so only set speed dials collide.
  await db.schema
    .createIndex('contact_numbers_speed_dial_unique')
    .on('contact_numbers')
    .columns(['pbx_id', 'speed_dial'])
    .unique()
    .where(sql.ref('speed_dial'), 'is not', null)
    .execute();

  await db.schema
    .createTable('contact_groups')
    .addColumn('id', uuid, (c) => c.primaryKey())
    .addColumn('pbx_id', uuid, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('default_internal_call_flow_id', uuid)
    .addColumn('default_external_call_flow_id', uuid)
    .addColumn('extension_id_shown_outside_the_group', uuid)
    .addColumn('default_caller_identity_id', uuid)
    .addColumn('external_uid', 'varchar(255)')
    .addColumn('allow_call_pickups', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_default_pbxes_outgoing_phone_numbers', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('display_tab_to_everyone_inside_voxbi', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_groups_name_unique').on('contact_groups').columns(['pbx_id', 'name']).unique().execute();

  await db.schema
    .createTable('contact_group_members')
    .addColumn('group_id', uuid, (c) => c.notNull().references('contact_groups.id').onDelete('cascade'))
    .addColumn('contact_id', uuid, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('contact_group_members_pk', ['group_id', 'contact_id'])
    .execute();
  await db.schema.createIndex('contact_group_members_contact_idx').on('contact_group_members').column('contact_id').execute();

  await db.schema
    .createTable('contact_group_users')
    .addColumn('group_id', uuid, (c) => c.notNull().references('contact_groups.id').onDelete('cascade'))
    .addColumn('user_id', uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('contact_group_users_pk', ['group_id', 'user_id'])
    .execute();

  for (const table of ['contact_favorites', 'contact_blocks']) {
    await db.schema
      .createTable(table)
      .addColumn('contact_id', uuid, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
      .addColumn('user_id', uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['contact_id', 'user_id'])
      .execute();
    await db.schema.createIndex(`${table}_user_idx`).on(table).column('user_id').execute();
  }

  await db.schema
    .createTable('contact_imports')
    .addColumn('id', uuid, (c) => c.primaryKey())
    .addColumn('pbx_id', uuid, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('user_id', uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('file_type', 'varchar(8)')
    .addColumn('original_name', 'varchar(255)')
    .addColumn('stored_path', 'varchar(1024)')
    .addColumn('file_size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('records_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('errors_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('processed_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('header_row_position', 'integer')
    .addColumn('sheet_index', 'integer')
    .addColumn('delimiter', 'varchar(4)')
    .addColumn('enclosure', 'varchar(4)')
    .addColumn('input_encoding', 'varchar(32)')
    .addColumn('skip_on_error', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notify_owner_by_email', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('webhook_url', 'varchar(2048)')
    .addColumn('mappings', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('columns', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('failure_reason', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('started_at', ts)
    .addColumn('completed_at', ts)
    .execute();
  await db.schema.createIndex('contact_imports_user_idx').on('contact_imports').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('contact_import_records')
    .addColumn('id', uuid, (c) => c.primaryKey())
    .addColumn('import_id', uuid, (c) => c.notNull().references('contact_imports.id').onDelete('cascade'))
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('model_id', uuid, (c) => c.notNull())
    .addColumn('is_new', 'integer', (c) => c.notNull())
    .addColumn('was_trashed', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_import_records_import_idx').on('contact_import_records').columns(['import_id', 'row']).execute();

  await db.schema
    .createTable('contact_import_errors')
    .addColumn('id', uuid, (c) => c.primaryKey())
    .addColumn('import_id', uuid, (c) => c.notNull().references('contact_imports.id').onDelete('cascade'))
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('attribute', 'varchar(255)')
    .addColumn('messages', 'text', (c) => c.notNull())
    .addColumn('row_data', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contact_import_errors_import_idx').on('contact_import_errors').columns(['import_id', 'row']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'contact_import_errors',
    'contact_import_records',
    'contact_imports',
    'contact_blocks',
    'contact_favorites',
    'contact_group_users',
    'contact_group_members',
    'contact_groups',
    'contact_numbers',
    'contacts',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
