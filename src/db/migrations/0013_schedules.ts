import { sql, type Kysely } from 'kysely';

const ID = 'varchar(36)';
const TS = 'varchar(32)';

/**
 * Shift schedules (modules/workforce/scheduling: schedules/, planning-statuses/): the tenant's
 * planning statuses (a status, or a sub-status of one), schedules with their scope (companies,
 * departments or employees) and their planning entries (an employee booked into slots of a day).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('planning_statuses')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('parent_id', ID, (c) => c.references('planning_statuses.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('color', 'varchar(7)')
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  // A name is unique among live siblings: the statuses of the tenant, or the sub-statuses of one status.
  await db.schema
    .createIndex('planning_statuses_top_name_unique')
    .on('planning_statuses')
    .columns(['pbx_id', 'name'])
    .unique()
    .where(sql<boolean>`parent_id is null and deleted_at is null`)
    .execute();
  await db.schema
    .createIndex('planning_statuses_sub_name_unique')
    .on('planning_statuses')
    .columns(['parent_id', 'name'])
    .unique()
    .where(sql<boolean>`parent_id is not null and deleted_at is null`)
    .execute();

  await db.schema
    .createTable('schedules')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('scope_type', 'varchar(16)', (c) => c.notNull())
    // JSON array of ISO weekdays (1 = Monday), sorted.
    .addColumn('days_of_week', 'varchar(32)', (c) => c.notNull())
    .addColumn('day_start_time', 'varchar(5)')
    .addColumn('day_end_time', 'varchar(5)')
    .addColumn('slot_duration_minutes', 'integer', (c) => c.notNull())
    .addColumn('status_id', ID, (c) => c.references('planning_statuses.id').onDelete('set null'))
    .addColumn('sub_status_id', ID, (c) => c.references('planning_statuses.id').onDelete('set null'))
    // JSON array of planning status ids selectable on the grid; empty = all.
    .addColumn('status_filters', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .addColumn('deleted_at', TS)
    .execute();
  await db.schema.createIndex('schedules_pbx_name_idx').on('schedules').columns(['pbx_id', 'name']).execute();

  // The raw selection of a schedule's scope, in the order given: companies, departments or employees.
  await db.schema
    .createTable('schedule_scope_items')
    .addColumn('schedule_id', ID, (c) => c.notNull().references('schedules.id').onDelete('cascade'))
    .addColumn('target_id', ID, (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('schedule_scope_items_pk', ['schedule_id', 'target_id'])
    .execute();

  await db.schema
    .createTable('planning_entries')
    .addColumn('id', ID, (c) => c.primaryKey())
    .addColumn('pbx_id', ID, (c) => c.notNull().references('pbxes.id').onDelete('cascade'))
    .addColumn('schedule_id', ID, (c) => c.notNull().references('schedules.id').onDelete('cascade'))
    .addColumn('employee_id', ID, (c) => c.notNull().references('employees.id').onDelete('cascade'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('start_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('end_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('status_id', ID, (c) => c.references('planning_statuses.id').onDelete('set null'))
    .addColumn('sub_status_id', ID, (c) => c.references('planning_statuses.id').onDelete('set null'))
    .addColumn('note', 'varchar(500)')
    .addColumn('created_at', TS, (c) => c.notNull())
    .addColumn('updated_at', TS, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('planning_entries_employee_day_idx').on('planning_entries').columns(['pbx_id', 'employee_id', 'day']).execute();
  await db.schema.createIndex('planning_entries_schedule_day_idx').on('planning_entries').columns(['schedule_id', 'day']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['planning_entries', 'schedule_scope_items', 'schedules', 'planning_statuses']) await db.schema.dropTable(table).ifExists().execute();
}
