import { PostgresAdapter, sql, type Kysely } from 'kysely';

const onPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * What the routing graph (modules/routing/graph) reads, table by table: the columns whose change
 * changes the graph, its validation or a simulation (null: every column). The PBX's own row is
 * keyed by `id`, every other row by `pbx_id`.
 */
export const ROUTING_SOURCES: Record<string, string[] | null> = {
  call_flows: null,
  ivrs: null,
  ivr_steps: null,
  queues: null,
  queue_members: null,
  sound_files: null,
  users: ['pbx_id', 'first_name', 'last_name', 'status', 'deleted_at'],
  extensions: ['pbx_id', 'name', 'number', 'user_id', 'deleted_at'],
  user_dnds: ['pbx_id', 'user_id', 'type', 'status', 'caller_identity_id', 'extension_id'],
  phone_numbers: ['pbx_id', 'number', 'destination_type', 'destination_id', 'deleted_at'],
  pbxes: ['country_code', 'timezone', 'half_day_split'],
};

const triggerName = (table: string, op: string) => `routing_version_${table}_${op}`;

/**
 * Each tenant's routing version (modules/routing owns the table): a counter that every change of
 * what the routing graph reads moves, in the transaction of the change, whoever makes it (a route,
 * a job, a seed, another instance, SQL by hand). Triggers do the counting, so no writer can forget
 * it; a process caches a tenant's graph under the version it was read at, and one cheap read of
 * the counter tells whether it is still the tenant's routing (modules/routing/graph/cache.ts).
 * Only existing rows are moved (the PBX's insert makes its row), so a cascade from a deleted PBX
 * has nothing to write.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('routing_versions')
    .addColumn('pbx_id', 'varchar(36)', (c) => c.primaryKey().references('pbxes.id').onDelete('cascade'))
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into routing_versions (pbx_id, version) select id, 0 from pbxes`.execute(db);

  if (onPostgres(db)) {
    await sql`
      create function routing_version_bump() returns trigger language plpgsql as $$
      declare
        key text := tg_argv[0];
        pbx text;
        old_pbx text;
      begin
        if tg_op = 'INSERT' and tg_table_name = 'pbxes' then
          insert into routing_versions (pbx_id, version) values (new.id, 0) on conflict (pbx_id) do nothing;
          return null;
        end if;
        if tg_op <> 'DELETE' then pbx := to_jsonb(new) ->> key; end if;
        if tg_op <> 'INSERT' then old_pbx := to_jsonb(old) ->> key; end if;
        update routing_versions set version = version + 1 where pbx_id in (pbx, old_pbx);
        return null;
      end $$`.execute(db);
    await sql`create trigger ${sql.raw(triggerName('pbxes', 'insert'))} after insert on pbxes for each row execute function routing_version_bump('id')`.execute(
      db,
    );
    for (const [table, columns] of Object.entries(ROUTING_SOURCES)) {
      const key = table === 'pbxes' ? 'id' : 'pbx_id';
      const ops = table === 'pbxes' ? ['update'] : ['insert', 'update', 'delete'];
      for (const op of ops) {
        const when = op === 'update' && columns ? sql.raw(`when (${columns.map((c) => `old.${c} is distinct from new.${c}`).join(' or ')}) `) : sql.raw('');
        await sql`create trigger ${sql.raw(triggerName(table, op))} after ${sql.raw(op)} on ${sql.table(table)} for each row ${when}execute function routing_version_bump(${sql.lit(key)})`.execute(
          db,
        );
      }
    }
    return;
  }

  await sql`create trigger ${sql.raw(triggerName('pbxes', 'insert'))} after insert on pbxes for each row begin
    insert or ignore into routing_versions (pbx_id, version) values (new.id, 0);
  end`.execute(db);
  for (const [table, columns] of Object.entries(ROUTING_SOURCES)) {
    const key = table === 'pbxes' ? 'id' : 'pbx_id';
    const ops = table === 'pbxes' ? ['update'] : ['insert', 'update', 'delete'];
    for (const op of ops) {
      const when = op === 'update' && columns ? sql.raw(`when ${columns.map((c) => `old.${c} is not new.${c}`).join(' or ')} `) : sql.raw('');
      const pbx = sql.raw(op === 'insert' ? `new.${key}` : op === 'delete' ? `old.${key}` : `new.${key}, old.${key}`);
      await sql`create trigger ${sql.raw(triggerName(table, op))} after ${sql.raw(op)} on ${sql.table(table)} for each row ${when}begin
        update routing_versions set version = version + 1 where pbx_id in (${pbx});
      end`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const tables = ['pbxes', ...Object.keys(ROUTING_SOURCES)];
  for (const table of tables)
    for (const op of ['insert', 'update', 'delete'])
      await sql`drop trigger if exists ${sql.raw(triggerName(table, op))}${onPostgres(db) ? sql` on ${sql.table(table)}` : sql``}`.execute(db);
  if (onPostgres(db)) await sql`drop function if exists routing_version_bump()`.execute(db);
  await db.schema.dropTable('routing_versions').ifExists().execute();
}
