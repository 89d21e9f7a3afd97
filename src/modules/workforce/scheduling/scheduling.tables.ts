/**
 * Row types of shift schedules (migration 0013): planning statuses, schedules with their scope,
 * and planning entries. Same storage rules as the foundation (booleans 0/1, timestamps ISO text,
 * days `YYYY-MM-DD`, times `HH:MM`).
 */
import type { Generated } from 'kysely';
import type { Flag, Timestamp } from '../../../db/columns.js';

/** A planning status ("On duty"), or with `parent_id` a sub-status of one ("Phone"). */
export interface PlanningStatusTable {
  id: string;
  pbx_id: string;
  parent_id: string | null;
  name: string;
  color: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

export type ScopeType = 'company' | 'department' | 'employees';

export interface ScheduleTable {
  id: string;
  pbx_id: string;
  name: string;
  scope_type: ScopeType;
  /** JSON array of ISO weekdays, sorted. */
  days_of_week: string;
  day_start_time: string | null;
  day_end_time: string | null;
  slot_duration_minutes: number;
  status_id: string | null;
  sub_status_id: string | null;
  /** JSON array of planning status ids; empty = all. */
  status_filters: string;
  is_active: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

/** One company, department or employee (per the schedule's scope type) of a schedule's selection. */
export interface ScheduleScopeItemTable {
  schedule_id: string;
  target_id: string;
  position: number;
}

/** An employee booked into a schedule from `start_time` to `end_time` (whole slots) of `day`. */
export interface PlanningEntryTable {
  id: string;
  pbx_id: string;
  schedule_id: string;
  employee_id: string;
  day: string;
  start_time: string;
  end_time: string;
  status_id: string | null;
  sub_status_id: string | null;
  note: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SchedulingTables {
  planning_statuses: PlanningStatusTable;
  schedules: ScheduleTable;
  schedule_scope_items: ScheduleScopeItemTable;
  planning_entries: PlanningEntryTable;
}
