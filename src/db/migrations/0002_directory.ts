import type { Kysely } from 'kysely';

const ID = 'varchar(36)';
const TS = 'varchar(32)';

/**
 * The telephony directory. Uniqueness the API promises (extension number per PBX, SIP username,
 * MAC address, phone number platform-wide, one DND rule per target, one button per position) is
 * a unique index, so concurrent requests cannot break it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('extensions')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('voip_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', ID, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('number', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('voicemail_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  await db.schema.createIndex('extensions_pbx_number_unique').on('extensions').columns(['pbx_id', 'number']).unique().execute();
  await db.schema.createIndex('extensions_pbx_voip_id_unique').on('extensions').columns(['pbx_id', 'voip_id']).unique().execute();
  await db.schema.createIndex('extensions_user_idx').on('extensions').column('user_id').execute();

  await db.schema
    .createTable('extension_favorites')
    .addColumn('user_id', ID, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('extension_id', ID, (c) => c.notNull().references('extensions.id').onDelete('cascade'))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addPrimaryKeyConstraint('extension_favorites_pk', ['user_id', 'extension_id'])
    .execute();

  await db.schema
    .createTable('sip_devices')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('user_id', ID, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('extension_id', ID, (c) => c.references('extensions.id').onDelete('set null'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('transport', 'varchar(8)', (c) => c.notNull().defaultTo('udp'))
    .addColumn('codecs', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('mac_address', 'varchar(17)')
    .addColumn('model', 'varchar(64)')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('roaming_extension_id', ID, (c) => c.references('extensions.id').onDelete('set null'))
    .addColumn('roaming_user_id', ID, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('roaming_since', TS)
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  // SIP registrars authenticate by username alone and provisioning servers by MAC: both platform-wide.
  await db.schema.createIndex('sip_devices_username_unique').on('sip_devices').column('username').unique().execute();
  await db.schema.createIndex('sip_devices_mac_address_unique').on('sip_devices').column('mac_address').unique().execute();
  await db.schema.createIndex('sip_devices_pbx_idx').on('sip_devices').columns(['pbx_id', 'user_id']).execute();

  await db.schema
    .createTable('phone_numbers')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('voip_id', 'integer', (c) => c.notNull())
    .addColumn('number', 'varchar(24)', (c) => c.notNull())
    .addColumn('label', 'varchar(255)')
    .addColumn('destination_type', 'varchar(16)', (c) => c.notNull().defaultTo('none'))
    .addColumn('destination_id', ID)
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  await db.schema.createIndex('phone_numbers_number_unique').on('phone_numbers').column('number').unique().execute();
  await db.schema.createIndex('phone_numbers_pbx_voip_id_unique').on('phone_numbers').columns(['pbx_id', 'voip_id']).unique().execute();

  await db.schema
    .createTable('caller_identities')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('voip_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', ID, (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('phone_number_id', ID, (c) => c.notNull().references('phone_numbers.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('external_caller_number', 'varchar(24)', (c) => c.notNull())
    .addColumn('external_caller_extension', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  await db.schema.createIndex('caller_identities_pbx_voip_id_unique').on('caller_identities').columns(['pbx_id', 'voip_id']).unique().execute();
  await db.schema.createIndex('caller_identities_user_idx').on('caller_identities').columns(['pbx_id', 'user_id']).execute();

  await db.schema
    .createTable('twinnings')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('user_id', ID, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('enabled'))
    .addColumn('phone_number', 'varchar(24)')
    .addColumn('delay', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_source', 'varchar(16)', (c) => c.notNull().defaultTo('manual'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo('mobile'))
    .addColumn('dial_strategy', 'varchar(32)', (c) => c.notNull().defaultTo('gsm_only'))
    .addColumn('fmc_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('backup_phone_number', 'varchar(24)')
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('twinnings_user_idx').on('twinnings').column('user_id').execute();

  await db.schema
    .createTable('user_dnds')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('user_id', ID, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('rule_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('caller_identity_id', ID, (c) => c.references('caller_identities.id').onDelete('cascade'))
    .addColumn('extension_id', ID, (c) => c.references('extensions.id').onDelete('cascade'))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_dnds_user_rule_unique').on('user_dnds').columns(['user_id', 'rule_key']).unique().execute();

  await db.schema
    .createTable('forwards')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('user_id', ID, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('destination_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('destination', 'varchar(32)')
    .addColumn('delay', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('forwards_user_type_unique').on('forwards').columns(['user_id', 'type']).unique().execute();

  await db.schema
    .createTable('user_settings')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('user_id', ID, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_settings_user_type_unique').on('user_settings').columns(['user_id', 'type']).unique().execute();

  await db.schema
    .createTable('user_groups')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('user_id', ID, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_groups_user_name_unique').on('user_groups').columns(['user_id', 'name']).unique().execute();
  await db.schema.createIndex('user_groups_pbx_idx').on('user_groups').columns(['pbx_id', 'user_id', 'position']).execute();

  await db.schema
    .createTable('user_group_members')
    .addColumn('user_group_id', ID, (c) => c.notNull().references('user_groups.id').onDelete('cascade'))
    .addColumn('user_id', ID, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addPrimaryKeyConstraint('user_group_members_pk', ['user_group_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('phone_buttons')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('user_id', ID, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('sip_device_id', ID, (c) => c.notNull().references('sip_devices.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('value', 'varchar(64)')
    .addColumn('label', 'varchar(64)')
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('phone_buttons_device_position_unique').on('phone_buttons').columns(['sip_device_id', 'position']).unique().execute();

  await db.schema
    .createTable('push_devices')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('user_id', ID, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('twinning_id', ID, (c) => c.references('twinnings.id').onDelete('set null'))
    .addColumn('name', 'varchar(255)')
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('token', 'varchar(512)', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('last_used_at', TS)
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_devices_token_unique').on('push_devices').column('token').unique().execute();
  await db.schema.createIndex('push_devices_user_idx').on('push_devices').columns(['user_id', 'type']).execute();

  await db.schema
    .createTable('webrtc_configurations')
    .addColumn('user_id', ID, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('hostname', 'varchar(255)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('password_sealed', 'text', (c) => c.notNull())
    .addColumn('voicemail_pin_sealed', 'text')
    .addColumn('call_pickup_restrictions', 'varchar(16)', (c) => c.notNull().defaultTo('yes'))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webrtc_configurations_username_unique').on('webrtc_configurations').column('username').unique().execute();

  // Held in the database, not process memory, so every server instance reads the same flag.
  await db.schema
    .createTable('in_call_states')
    .addColumn('user_id', ID, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('in_call', 'integer', (c) => c.notNull())
    .addColumn('in_call_updated_at', TS, (c) => c.notNull())
    .addColumn('expires_at', TS, (c) => c.notNull())
    .addColumn('ttl_seconds', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'in_call_states',
    'webrtc_configurations',
    'push_devices',
    'phone_buttons',
    'user_group_members',
    'user_groups',
    'user_settings',
    'forwards',
    'user_dnds',
    'twinnings',
    'caller_identities',
    'phone_numbers',
    'sip_devices',
    'extension_favorites',
    'extensions',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
