import type { OperationDocs } from '../../../../http/resource-routes.js';

/** The OpenAPI text of planning-statuses.routes.ts, by operation id. */
export const PLANNING_STATUSES_DOCS = {
  listPlanningStatuses: {
    summary: 'Planning statuses of the PBX (any user of the PBX may read them)',
    description: 'Every live status by name, each followed by its sub-statuses (parentId set) by name, as `{data}`.',
  },
  getPlanningStatus: {
    summary: 'One planning status',
    description: 'Any user of the PBX and its PBX key (the path’s pbx_id must be the caller’s PBX, else 403). Another tenant’s or a deleted status is 404.',
  },
  createPlanningStatus: {
    summary: 'Create a planning status or sub-status (administrators, PBX API key)',
    description:
      'name (1-64, unique among the live statuses, or among the sub-statuses of the same status, else 422); parentId makes it a sub-status of a live status ' +
      '(not of a sub-status: one level only, else 422); color #RRGGBB or null.',
  },
  updatePlanningStatus: {
    summary: 'Rename or recolour a planning status (administrators, PBX API key)',
    description: 'Changes the fields sent; whether it is a sub-status, and of which status, is fixed at creation.',
  },
  deletePlanningStatus: {
    summary: 'Delete a planning status and its sub-statuses (administrators, PBX API key)',
    description: 'Soft delete: schedules and planning entries that name it keep showing it, but it can no longer be chosen (422).',
  },
} satisfies OperationDocs;
