import type { Kysely } from 'kysely';

const ts = 'varchar(32)';
const uuid = 'varchar(36)';

/**
 * One-time stream tickets (modules/events): what a browser passes as `?ticket=` to open a live
 * event stream, standing for 30 seconds, once, for the credential that asked. Kept as digests
 * only; a used ticket is deleted, expired ones when the next is issued.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_tickets')
    .addColumn('ticket_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('pbx_id', uuid, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('credential_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('credential_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('principal_id', uuid, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  // Expired tickets are deleted across tenants.
  await db.schema.createIndex('event_tickets_expires_idx').on('event_tickets').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_tickets').ifExists().execute();
}
