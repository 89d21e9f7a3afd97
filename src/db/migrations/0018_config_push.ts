import type { Kysely } from 'kysely';

const ID = 'varchar(36)';
const TS = 'varchar(32)';

/**
 * The configuration push (modules/config-push): versions (one per push, its files kept for the
 * diff and rollback), the per-PBX push gate (one a minute) and the simulated engine's active
 * configuration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('config_versions')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('files', 'text', (c) => c.notNull())
    .addColumn('manifest', 'text', (c) => c.notNull())
    // The routing (graph and numbers, JSON) the version was compiled from: what a simulated PBX routes calls by.
    .addColumn('routing', 'text')
    .addColumn('diff_summary', 'text', (c) => c.notNull())
    .addColumn('rollback_of', 'integer')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('engine', 'varchar(16)')
    .addColumn('reloaded', 'text', (c) => c.notNull())
    .addColumn('principal_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('principal_id', ID, (c) => c.notNull())
    .addColumn('user_id', ID)
    .addColumn('job_id', ID)
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('started_at', TS)
    .addColumn('finished_at', TS)
    .execute();
  await db.schema.createIndex('config_versions_pbx_version_uq').on('config_versions').columns(['pbx_id', 'version']).unique().execute();
  await db.schema.createIndex('config_versions_pbx_status_idx').on('config_versions').columns(['pbx_id', 'status', 'version']).execute();

  await db.schema
    .createTable('config_push_gates')
    .addColumn('pbx_id', ID, (c) => c.primaryKey().references('pbxes.id').onDelete('cascade'))
    .addColumn('last_push_at', TS, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('simulated_configurations')
    .addColumn('pbx_id', ID, (c) => c.primaryKey().references('pbxes.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('files', 'text', (c) => c.notNull())
    .addColumn('routing', 'text')
    .addColumn('applied_at', TS, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('simulated_configurations').execute();
  await db.schema.dropTable('config_push_gates').execute();
  await db.schema.dropTable('config_versions').execute();
}
