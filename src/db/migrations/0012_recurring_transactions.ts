import { PostgresAdapter, sql, type Kysely } from 'kysely';

const ID = 'varchar(36)';
const TS = 'varchar(32)';

const onPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Workforce III (modules/workforce/absences: recurring/, absence-types/): the tenant's absence
 * types, the recurring transaction templates whose runs credit or debit a contract's balance, and
 * on the ledger the two columns that mark a row as such a run's balance adjustment. A run copies
 * the template's sub_type (up to 64 characters) and note (up to 65,535) into the ledger row, so
 * PostgreSQL's narrower ledger columns are widened (SQLite does not enforce declared lengths).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('absence_types')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    // The ledger type in the contract's spelling: legal, home_office, illness, special, overtime_balance.
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  // A name picks one live type of the tenant; a deleted one frees its name.
  await db.schema
    .createIndex('absence_types_pbx_name_unique')
    .on('absence_types')
    .columns(['pbx_id', 'name'])
    .unique()
    .where(sql<boolean>`deleted_at is null`)
    .execute();

  await db.schema
    .createTable('recurring_transactions')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('employee_id', ID, (c) => c.notNull().references('employees.id').onDelete('cascade'))
    // legal, home_office or overtime_balance: the balance a run changes.
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('sub_type', 'varchar(64)')
    .addColumn('absence_type_id', ID, (c) => c.references('absence_types.id').onDelete('set null'))
    // Days (legal, home_office) or hours (overtime_balance).
    .addColumn('amount', 'double precision', (c) => c.notNull())
    .addColumn('tr_type', 'varchar(6)', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('frequency', 'varchar(16)', (c) => c.notNull())
    .addColumn('run_once', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('failure_reason', 'varchar(500)')
    .addColumn('next_run_at', TS)
    .addColumn('last_run_at', TS)
    .addColumn('last_transaction_id', ID)
    .addColumn('created_by_user_id', ID)
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  await db.schema.createIndex('recurring_transactions_pbx_employee_idx').on('recurring_transactions').columns(['pbx_id', 'employee_id']).execute();

  // No foreign key: SQLite cannot drop a column that has one (down), and templates are only ever soft-deleted.
  await db.schema.alterTable('absence_requests').addColumn('recurring_transaction_id', ID).execute();
  // credit or debit on a run's balance adjustment; null on requests.
  await db.schema.alterTable('absence_requests').addColumn('adjustment', 'varchar(6)').execute();
  if (onPostgres(db)) {
    await sql`alter table absence_requests alter column sub_type type varchar(64), alter column comment type text`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (onPostgres(db)) {
    await sql`alter table absence_requests alter column sub_type type varchar(32), alter column comment type varchar(500)`.execute(db);
  }
  await db.schema.alterTable('absence_requests').dropColumn('adjustment').execute();
  await db.schema.alterTable('absence_requests').dropColumn('recurring_transaction_id').execute();
  for (const table of ['recurring_transactions', 'absence_types']) await db.schema.dropTable(table).ifExists().execute();
}
