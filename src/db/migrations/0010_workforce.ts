import { sql, type Kysely } from 'kysely';

const ID = 'varchar(36)';
const TS = 'varchar(32)';
/** Calendar days are `YYYY-MM-DD` text in both dialects, so they compare and sort as dates. */
const DATE = 'varchar(10)';

/**
 * The workforce's ground (modules/workforce): the tenant's companies and departments, its
 * employees (a user points at its employee through `users.employee_id`), their contracts with
 * companies, weekly work-shift patterns assigned over periods, and the holidays a tenant defines
 * itself (public holidays come from `date-holidays` by the company's country and region). Two
 * tenant settings join the PBX row: the name order of every `fullName` and the half-day split.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('pbxes')
    .addColumn('name_order', 'varchar(16)', (c) => c.notNull().defaultTo('first_last'))
    .execute();
  await db.schema
    .alterTable('pbxes')
    .addColumn('half_day_split', 'varchar(5)', (c) => c.notNull().defaultTo('12:00'))
    .execute();

  await db.schema
    .createTable('companies')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('street', 'varchar(255)')
    .addColumn('postal_code', 'varchar(32)')
    .addColumn('city', 'varchar(255)')
    .addColumn('country_cc', 'varchar(2)', (c) => c.notNull())
    .addColumn('region', 'varchar(16)')
    .addColumn('legal_holidays', 'double precision', (c) => c.notNull().defaultTo(26))
    .addColumn('full_time', 'integer', (c) => c.notNull().defaultTo(144000))
    .addColumn('overtime_calculation_period_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('overtime_decision_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  await db.schema.createIndex('companies_pbx_name_idx').on('companies').columns(['pbx_id', 'name']).execute();

  await db.schema
    .createTable('departments')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('company_id', ID, (c) => c.references('companies.id').onDelete('set null'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  await db.schema.createIndex('departments_pbx_name_idx').on('departments').columns(['pbx_id', 'name']).execute();

  await db.schema
    .createTable('employees')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('ext_id', 'varchar(64)')
    .addColumn('first_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  await db.schema.createIndex('employees_pbx_ext_id_unique').on('employees').columns(['pbx_id', 'ext_id']).unique().execute();
  await db.schema.createIndex('employees_pbx_name_idx').on('employees').columns(['pbx_id', 'last_name', 'first_name']).execute();
  // A user is linked to at most one employee and an employee to at most one user.
  await db.schema.createIndex('users_employee_unique').on('users').column('employee_id').unique().execute();

  await db.schema
    .createTable('employee_contracts')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('employee_id', ID, (c) => c.notNull().references('employees.id').onDelete('cascade'))
    .addColumn('company_id', ID, (c) => c.references('companies.id').onDelete('set null'))
    .addColumn('department_id', ID, (c) => c.references('departments.id').onDelete('set null'))
    .addColumn('participation', 'double precision')
    .addColumn('contract_start', DATE, (c) => c.notNull())
    .addColumn('contract_end', DATE)
    .addColumn('main_company', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('compensatory_balance', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ho_balance', 'double precision')
    .addColumn('title', 'varchar(255)')
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  // An employee's contracts: the queries also name the tenant, so the index names both, or SQLite
  // would walk the whole tenant through employee_contracts_pbx_idx (7 ms for 2,000 employees).
  await db.schema.createIndex('employee_contracts_employee_idx').on('employee_contracts').columns(['employee_id', 'pbx_id', 'contract_start']).execute();
  await db.schema.createIndex('employee_contracts_pbx_idx').on('employee_contracts').columns(['pbx_id', 'contract_start']).execute();
  // At most one live contract of an employee is its stored main one (setting another clears it).
  await db.schema
    .createIndex('employee_contracts_one_main')
    .on('employee_contracts')
    .column('employee_id')
    .unique()
    .where(sql<boolean>`main_company = 1 and deleted_at is null`)
    .execute();

  // A weekly pattern (seconds per ISO weekday) the tenant names once, e.g. "Full time 40 h".
  await db.schema
    .createTable('work_shifts')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('monday', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tuesday', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('wednesday', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('thursday', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('friday', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('saturday', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sunday', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  // A name picks one live pattern of the tenant; a deleted one frees its name.
  await db.schema
    .createIndex('work_shifts_pbx_name_unique')
    .on('work_shifts')
    .columns(['pbx_id', 'name'])
    .unique()
    .where(sql<boolean>`deleted_at is null`)
    .execute();

  // Which pattern an employee works over which days: "the employee's own day".
  await db.schema
    .createTable('work_shift_assignments')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('employee_id', ID, (c) => c.notNull().references('employees.id').onDelete('cascade'))
    .addColumn('work_shift_id', ID, (c) => c.notNull().references('work_shifts.id').onDelete('cascade'))
    .addColumn('valid_from', DATE, (c) => c.notNull())
    .addColumn('valid_until', DATE)
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  await db.schema.createIndex('work_shift_assignments_employee_idx').on('work_shift_assignments').columns(['employee_id', 'valid_from']).execute();

  // Holidays a tenant adds to the public ones: for every company (company_id null) or one.
  await db.schema
    .createTable('tenant_holidays')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('company_id', ID, (c) => c.references('companies.id').onDelete('cascade'))
    .addColumn('date', DATE, (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('half_day', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('recurring', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  await db.schema.createIndex('tenant_holidays_pbx_date_idx').on('tenant_holidays').columns(['pbx_id', 'date']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['tenant_holidays', 'work_shift_assignments', 'work_shifts', 'employee_contracts', 'employees', 'departments', 'companies']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.dropIndex('users_employee_unique').ifExists().execute();
  await db.schema.alterTable('pbxes').dropColumn('half_day_split').execute();
  await db.schema.alterTable('pbxes').dropColumn('name_order').execute();
}
