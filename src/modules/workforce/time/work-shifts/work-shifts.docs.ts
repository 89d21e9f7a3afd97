import type { OperationDocs } from '../../../../http/resource-routes.js';

/** The OpenAPI text of work-shifts.routes.ts, by operation id. */
export const WORK_SHIFTS_DOCS = {
  listWorkShifts: {
    summary: 'Work shifts of the PBX (any user of the PBX may read them)',
    description:
      'Named weekly patterns with the seconds of work per ISO weekday (monday..sunday) and their sum, weekly_seconds. ' +
      'search matches the name; sort by name (default), weekly_seconds or created_at. filter[trashed]=with|only shows deleted ones to administrators and the PBX key (403 for others).',
  },
  getWorkShift: {
    summary: 'One work shift',
    description: 'Any user of the PBX and its PBX key (the path’s pbx_id must be the caller’s PBX, else 403). Another tenant’s or a deleted work shift is 404.',
  },
  createWorkShift: {
    summary: 'Create a work shift (administrators, PBX API key)',
    description: 'name (unique among the live work shifts of the PBX, else 422) and the seconds per weekday, each 0 to 86400; a day left out is 0.',
  },
  updateWorkShift: {
    summary: 'Change a work shift (administrators, PBX API key)',
    description:
      'Changes the fields sent. The pattern counts for every day it is assigned, past days included: to change working hours from a date on, ' +
      'create another work shift and assign it from that date.',
  },
  deleteWorkShift: {
    summary: 'Soft-delete a work shift (administrators, PBX API key)',
    description:
      'A deleted work shift can no longer be assigned (422) and frees its name; the assignments already made keep it, so required work time stays as it was. Restorable.',
  },
  restoreWorkShift: {
    summary: 'Restore a soft-deleted work shift (administrators, PBX API key)',
    description: '422 when a live work shift has taken its name meanwhile; 404 when it is not deleted.',
  },
} satisfies OperationDocs;
