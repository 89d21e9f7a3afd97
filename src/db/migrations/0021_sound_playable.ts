import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Sound files keep, beside the uploaded audio, the version the PBX plays (8 kHz mono 16-bit PCM
 * WAV, converted on upload) and its SHA-256, which the list shows so that the PBX host fetches
 * only what changed. Files uploaded before have neither: they are converted on their first fetch.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema.alterTable('sound_files').addColumn('playable_checksum_sha256', 'varchar(64)').execute();
  await db.schema.alterTable('sound_file_contents').addColumn('playable', bytes).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sound_file_contents').dropColumn('playable').execute();
  await db.schema.alterTable('sound_files').dropColumn('playable_checksum_sha256').execute();
}
