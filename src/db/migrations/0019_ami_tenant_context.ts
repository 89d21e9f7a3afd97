import { sql, type Kysely } from 'kysely';

/**
 * Click-to-call dials in the tenant's own context (`t` and the PBX id's hex digits, where the pushed
 * dialplan puts its extensions and outbound routes), no longer in `from-internal`, which the push
 * never writes: settings saved with that old default take the tenant's context.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update ami_settings set context = 't' || lower(replace(pbx_id, '-', '')) where context = 'from-internal'`.execute(db);
}

export async function down(): Promise<void> {
  // The old default never reached a pushed context: nothing to restore.
}
