import type { OperationDocs } from '../../../../http/resource-routes.js';

/** The flat schedule every answer of a schedule gives. */
const SHAPE =
  'Flat schedule with every relation resolved: department (the first covered department, null when none), status and subStatus (always loaded here: null when unset), ' +
  'scope (the raw selection with names; only the list of scopeType is filled), departments (covered), employees (the assignable pool).';

/** The OpenAPI text of schedules.routes.ts, by operation id. */
export const SCHEDULES_DOCS = {
  listSchedules: {
    summary: 'Shift schedules of the PBX (paginated)',
    description: `Any user of the PBX and the PBX key. search matches the name; filter[isActive]; sort name (default) or created_at. Each item: ${SHAPE}`,
  },
  getSchedule: {
    summary: 'One shift schedule, relations resolved',
    description: `Readable by any authenticated user of the PBX (403 for a user of another PBX); 404 for an unknown, deleted or another tenant's schedule. ${SHAPE}`,
  },
  createSchedule: {
    summary: 'Create a shift schedule (administrators, PBX API key)',
    description:
      'scopeType company | department (default) | employees, with scope holding at least one live id of that type only (another list filled, an empty or unknown selection: 422 on scope.<list>). ' +
      'daysOfWeek default Monday to Friday; dayStartTime/dayEndTime both or neither (neither = the whole day), the end after the start, holding at least one slot; ' +
      'slotDurationMinutes 5-720, default SCHEDULE_SLOT_MINUTES (30); statusId a live status, subStatusId a live sub-status of it; statusFilters live statuses; isActive default true. Answers the flat schedule (201).',
  },
  updateSchedule: {
    summary: 'Change a shift schedule (administrators, PBX API key)',
    description:
      'Changes the fields sent, with the rules of the create; a new scopeType needs its scope list. A new statusId without subStatusId clears the sub-status. ' +
      'Entries already booked stay as they are. Answers the flat schedule.',
  },
  deleteSchedule: {
    summary: 'Delete a shift schedule (administrators, PBX API key)',
    description: 'Soft delete: the schedule and its entries leave every list and grid, and stop counting as bookings of their employees.',
  },
  listScheduleEmployees: {
    summary: 'The employees a schedule may assign, ordered by name',
    description:
      'Only employees with a contract active today, whatever the scope: company = contracted with a selected company, department = contracted in a selected department, employees = the selected people. ' +
      "Each with the department of their most recent contract active today (both null when it has none) and fullName in the tenant's name order. " +
      'For slot pickers; it supersedes filtering the user list by the schedule\u2019s group. The same list is the schedule\u2019s employees. Booking anyone else is 422.',
  },
  getSchedulePlanning: {
    summary: "A schedule's week grid: each day's slots and the entries booked in them",
    description:
      'Any user of the PBX and its PBX key (the path’s pbx_id must be the caller’s PBX, else 403). week: any day of the ISO week (default the tenant\u2019s current week). Listed weekdays show every slot of the window; isScheduled is false on other days and on every day of an inactive schedule (which takes no bookings). ' +
      'An entry shows in each slot it covers.',
  },
  createPlanningEntry: {
    summary: 'Book an employee into slots of a day (administrators, PBX API key)',
    description:
      '422: the schedule is inactive; the date is not on its daysOfWeek; startTime/endTime off the slot grid or outside the window (endTime defaults to one slot later); ' +
      'the employee outside the assignable list; the employee already booked at an overlapping time that day in any schedule of the PBX (the message names the entry); ' +
      'a status not live, a sub-status not of the status, or a status outside statusFilters. Status and sub-status default to the schedule\u2019s.',
  },
  getPlanningEntry: {
    summary: 'One planning entry of a schedule',
    description:
      'Any user of the PBX and its PBX key, as for the week grid (the path’s pbx_id must be the caller’s PBX, else 403). ' +
      'Answers `{data}` with the entry as the grid and the writes show it; an unknown entry, another schedule’s, or one of a deleted or another tenant’s schedule is 404.',
  },
  updatePlanningEntry: {
    summary: "Change a planning entry's status, sub-status or note (administrators, PBX API key)",
    description: 'To move a booking, delete it and book again. A new statusId without subStatusId clears the sub-status.',
  },
  deletePlanningEntry: {
    summary: 'Unbook a planning entry (administrators, PBX API key)',
    description: "Another schedule's or tenant's entry is 404.",
  },
} satisfies OperationDocs;
