import type { OperationDocs } from '../../../../http/resource-routes.js';

/** The OpenAPI text of absence-types.routes.ts, by operation id. */
export const ABSENCE_TYPES_DOCS = {
  listAbsenceTypes: {
    summary: 'Absence types of the PBX (any user of the PBX may read them)',
    description:
      'Named kinds of absence, each booked as a ledger type (legal, home_office, illness, special, overtime_balance). ' +
      'search matches the name; filter[type] narrows to one ledger type; sort by name (default) or created_at. ' +
      'filter[trashed]=with|only shows deleted ones to administrators and the PBX key (403 for others).',
  },
  getAbsenceType: {
    summary: 'One absence type',
    description:
      'Any user of the PBX and its PBX key (the path’s pbx_id must be the caller’s PBX, else 403). Another tenant’s or a deleted absence type is 404.',
  },
  createAbsenceType: {
    summary: 'Create an absence type (administrators, PBX API key)',
    description: 'name: 1-64 characters, unique among the live absence types of the PBX (else 422); type: the ledger type it books as.',
  },
  updateAbsenceType: {
    summary: 'Change an absence type (administrators, PBX API key)',
    description: 'Changes the fields sent (name unique among live types, else 422). Recurring transactions already made keep the type they were made with.',
  },
  deleteAbsenceType: {
    summary: 'Soft-delete an absence type (administrators, PBX API key)',
    description: 'A deleted type can no longer be named by a new recurring transaction (422) and frees its name; templates that name it keep it. Restorable.',
  },
  restoreAbsenceType: {
    summary: 'Restore a soft-deleted absence type (administrators, PBX API key)',
    description: '422 when a live absence type has taken its name meanwhile; 404 when it is not deleted.',
  },
} satisfies OperationDocs;
