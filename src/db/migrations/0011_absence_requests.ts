import type { Kysely } from 'kysely';

const ID = 'varchar(36)';
const TS = 'varchar(32)';
const DATE = 'varchar(10)';

/**
 * Workforce II (modules/workforce/absences/absence-requests; the department validators belong to
 * the organisation, the contracts' leave balance to time): the time-tracking ledger. One row per
 * absence, home-office day, illness, special leave or overtime adjustment, with its amounts
 * computed once against the employee's own day; one approval entry per validator; the validators a
 * department names for its employees' requests; and the paid-leave balance a contract keeps (in
 * days), which approvals of legal absences debit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('employee_contracts')
    .addColumn('leave_balance', 'double precision', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('department_validators')
    .addColumn('department_id', ID, (c) => c.notNull().references('departments.id').onDelete('cascade'))
    .addColumn('employee_id', ID, (c) => c.notNull().references('employees.id').onDelete('cascade'))
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('department_validators_pk', ['department_id', 'employee_id'])
    .execute();

  await db.schema
    .createTable('absence_requests')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('employee_id', ID, (c) => c.notNull().references('employees.id').onDelete('cascade'))
    .addColumn('company_id', ID, (c) => c.references('companies.id').onDelete('set null'))
    .addColumn('contract_id', ID, (c) => c.references('employee_contracts.id').onDelete('set null'))
    // Stored spellings: absence (exposed as legal), home_office, illness, special, overtime_balance.
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('sub_type', 'varchar(32)')
    // Stored spellings: pending, approved, rejected, cancelled, pending_removal, removed.
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('start_day', DATE, (c) => c.notNull())
    .addColumn('end_day', DATE, (c) => c.notNull())
    .addColumn('starts_half_day', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ends_half_day', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_time', 'varchar(5)')
    .addColumn('end_time', 'varchar(5)')
    // A single half day's half: morning or afternoon (null: a window given by both hours, or not a single half day).
    .addColumn('half_day_part', 'varchar(9)')
    // JSON: date -> seconds, working days only.
    .addColumn('requested_time', 'text', (c) => c.notNull())
    .addColumn('working_days', 'double precision', (c) => c.notNull())
    .addColumn('total_seconds', 'integer', (c) => c.notNull())
    .addColumn('workshift_seconds_per_day', 'integer', (c) => c.notNull())
    .addColumn('comment', 'varchar(500)')
    .addColumn('request_group_id', ID)
    // A removal row (sub_type removal) names the accepted request it takes back.
    .addColumn('removal_of_id', ID, (c) => c.references('absence_requests.id').onDelete('cascade'))
    // What the approval took from a balance (days for leave and home office, seconds for overtime), given back by a removal.
    .addColumn('balance_debited', 'double precision')
    .addColumn('created_by_user_id', ID)
    .addColumn('decided_at', TS)
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('absence_requests_employee_idx').on('absence_requests').columns(['employee_id', 'pbx_id', 'start_day']).execute();
  // The home-office calendar and the tenant-wide lists read a tenant's rows by type and period.
  await db.schema.createIndex('absence_requests_pbx_type_idx').on('absence_requests').columns(['pbx_id', 'type', 'start_day']).execute();
  await db.schema.createIndex('absence_requests_removal_idx').on('absence_requests').column('removal_of_id').execute();

  await db.schema
    .createTable('absence_request_validators')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('absence_request_id', ID, (c) => c.notNull().references('absence_requests.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    // Null: any administrator of the tenant (no department validator was named).
    .addColumn('employee_id', ID, (c) => c.references('employees.id').onDelete('set null'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('decided_by_user_id', ID)
    .addColumn('decided_at', TS)
    .execute();
  await db.schema
    .createIndex('absence_request_validators_request_unique')
    .on('absence_request_validators')
    .columns(['absence_request_id', 'position'])
    .unique()
    .execute();
  await db.schema.createIndex('absence_request_validators_employee_idx').on('absence_request_validators').columns(['employee_id', 'status']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['absence_request_validators', 'absence_requests', 'department_validators']) await db.schema.dropTable(table).ifExists().execute();
  await db.schema.alterTable('employee_contracts').dropColumn('leave_balance').execute();
}
