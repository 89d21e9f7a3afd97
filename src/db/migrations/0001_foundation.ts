import type { Kysely } from 'kysely';

/** Tenants, users, tokens, API keys and one-time login secrets. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pbxes')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('country_code', 'varchar(2)', (c) => c.notNull().defaultTo('LU'))
    .addColumn('timezone', 'varchar(64)', (c) => c.notNull().defaultTo('Europe/Luxembourg'))
    .addColumn('plan', 'varchar(32)', (c) => c.notNull().defaultTo('standard'))
    .addColumn('rate_limit_per_minute', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('pbx_id', 'varchar(36)', (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('email', 'varchar(255)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)')
    .addColumn('first_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('language', 'varchar(8)', (c) => c.notNull().defaultTo('en'))
    .addColumn('role', 'varchar(16)', (c) => c.notNull().defaultTo('user'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('email_verified_at', 'varchar(32)')
    .addColumn('allow_telephony', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('allow_dnd', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('allow_change_twinning_dest', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('allow_call_forwarding', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('allow_manage_global_contacts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('call_recordings_visibility', 'varchar(32)')
    .addColumn('extension_roaming', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('call_information_visibility', 'varchar(32)')
    .addColumn('allow_status_changer', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('allow_manage_voicemail_parameters', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('show_in_address_book', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('voicemail_type', 'varchar(32)')
    .addColumn('voicemail_destination', 'varchar(32)')
    .addColumn('concurrent_calls', 'integer')
    .addColumn('vip', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_source', 'varchar(32)')
    .addColumn('allow_anonymous_calls', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('identity_provider_uid', 'varchar(255)')
    .addColumn('is_shadow', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('employee_id', 'varchar(36)')
    .addColumn('tempus', 'varchar(255)')
    .addColumn('contact_sync', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('deleted_at', 'varchar(32)')
    .execute();
  // Login is by e-mail alone, so an address identifies one account across the platform.
  await db.schema.createIndex('users_email_unique').on('users').column('email').unique().execute();
  await db.schema.createIndex('users_pbx_idx').on('users').columns(['pbx_id', 'last_name', 'first_name']).execute();

  await db.schema
    .createTable('access_tokens')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('pbx_id', 'varchar(36)', (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('revoked_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('access_tokens_user_idx').on('access_tokens').column('user_id').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('pbx_id', 'varchar(36)', (c) => c.references('pbxes.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('token_hint', 'varchar(32)', (c) => c.notNull())
    .addColumn('token_sealed', 'text')
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_by_user_id', 'varchar(36)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('revoked_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_keys_pbx_idx').on('api_keys').columns(['pbx_id', 'kind', 'created_at']).execute();

  await db.schema
    .createTable('one_time_secrets')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('consumed_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('one_time_secrets_user_idx').on('one_time_secrets').columns(['user_id', 'purpose', 'created_at']).execute();
  await db.schema.createIndex('one_time_secrets_hash_idx').on('one_time_secrets').column('secret_hash').execute();

  // Operator-level key/value state (the sealed demo seed answer, so seeding twice prints the same JSON).
  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['settings', 'one_time_secrets', 'api_keys', 'access_tokens', 'users', 'pbxes']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
