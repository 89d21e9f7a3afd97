import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

const ts = 'varchar(32)';

/** The API route whose keys the calls domain kept before this migration (`POST /calls/new`). */
const CALLS_ROUTE = 'POST /api/v1/calls/new';

/**
 * Idempotency keys for every principal and every creating route (platform/idempotency), in place of
 * the calls domain's own store (`idempotency_keys`, migration 0005, users only). The live answers of
 * that store are carried over, so a retry across the upgrade still replays: their fingerprint is
 * the new one of the same request (`fingerprintOf`: the method and route over the old digest of
 * `{query, body}`). Keys still running, or expired, are not carried over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_records')
    .addColumn('pbx_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('principal', 'varchar(80)', (c) => c.notNull())
    .addColumn('key', 'varchar(255)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('sealed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('content_type', 'varchar(255)')
    .addColumn('location', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_records_pkey', ['pbx_id', 'principal', 'key'])
    .execute();
  // Expired keys are purged across tenants.
  await db.schema.createIndex('idempotency_records_expires_idx').on('idempotency_records').column('expires_at').execute();

  const old = db as unknown as Kysely<OldTables>;
  const live = await old
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('scope', '=', 'calls.new')
    .where('expires_at', '>', new Date().toISOString())
    .where('response_status', 'is not', null)
    .execute();
  for (const row of live) {
    if (row.response_body === null || row.response_status === null) continue;
    await old
      .insertInto('idempotency_records')
      .values({
        pbx_id: row.pbx_id,
        principal: `user:${row.user_id}`,
        key: row.key,
        fingerprint: createHash('sha256').update(`${CALLS_ROUTE}\n${row.request_hash}`).digest('hex'),
        response_status: row.response_status,
        response_body: row.response_body,
        content_type: 'application/json; charset=utf-8',
        location: null,
        created_at: row.created_at,
        expires_at: row.expires_at,
      })
      .execute();
  }
  await db.schema.dropTable('idempotency_keys').execute();
}

/** Back to the calls domain's store: its keys are not carried back (a retry then places the call anew). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('pbx_id', 'varchar(36)', (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
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
  await db.schema.dropTable('idempotency_records').ifExists().execute();
}

/** The tables as this migration reads and writes them (the application's types no longer name the old one). */
interface OldTables {
  idempotency_keys: {
    pbx_id: string;
    user_id: string;
    scope: string;
    key: string;
    request_hash: string;
    response_status: number | null;
    response_body: string | null;
    created_at: string;
    expires_at: string;
  };
  idempotency_records: {
    pbx_id: string;
    principal: string;
    key: string;
    fingerprint: string;
    response_status: number | null;
    response_body: string | null;
    content_type: string | null;
    location: string | null;
    created_at: string;
    expires_at: string;
  };
}
