import type { Kysely } from 'kysely';

const ts = 'varchar(32)';
const uuid = 'varchar(36)';

/** The tenants' audit trail: who did what, when (platform/audit). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', uuid, (c) => c.primaryKey())
    .addColumn('pbx_id', uuid, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject_id', 'varchar(64)')
    .addColumn('principal_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('principal_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', uuid)
    .addColumn('request_id', 'varchar(128)')
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  // The trail is read per tenant, newest first, often for one action.
  await db.schema.createIndex('audit_events_pbx_created_idx').on('audit_events').columns(['pbx_id', 'created_at']).execute();
  await db.schema.createIndex('audit_events_pbx_action_idx').on('audit_events').columns(['pbx_id', 'action', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_events').ifExists().execute();
}
