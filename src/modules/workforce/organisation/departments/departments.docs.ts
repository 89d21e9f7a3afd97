import type { OperationDocs } from '../../../../http/resource-routes.js';

/** The OpenAPI text of departments.routes.ts, by operation id. */
export const DEPARTMENTS_DOCS = {
  listDepartments: {
    summary: 'Departments of the PBX',
    description:
      'Any user of the PBX and its PBX API key. `search` matches the name; `filter[company_id]`; `filter[trashed]` (without, with, only); `include=company` embeds the company. Each department shows its `validator_ids`. Sorted by name unless `sort` says otherwise.',
  },
  createDepartment: {
    summary: 'Create a department',
    description:
      'Administrators and the PBX API key. `company_id` must be a live company of the PBX (or null): anything else, another tenant\u2019s company included, is 422. `validator_ids` (optional, default none): the employees who decide the requests of the department\u2019s employees, in order; each a live employee of the PBX, listed once (422 on `validator_ids.<index>` otherwise), at most 10. The answer embeds the company.',
  },
  getDepartment: {
    summary: 'One department',
    description: "Any user of the PBX and its PBX API key; `include=company`. A soft-deleted department, or another tenant's, is 404.",
  },
  updateDepartment: {
    summary: 'Rename a department, move it to another company or set its validators (only the fields sent)',
    description:
      'Administrators and the PBX API key. A new `company_id` must be a live company of the PBX (422 otherwise); null detaches it. `validator_ids`, when sent, replaces the whole list in the order given ([] clears it); each must be a live employee of the PBX, listed once (422 on `validator_ids.<index>` otherwise). The answer embeds the company.',
  },
  deleteDepartment: {
    summary: 'Soft-delete a department (restorable)',
    description: 'Administrators and the PBX API key. Contracts naming it keep their department_id.',
  },
  restoreDepartment: {
    summary: 'Restore a soft-deleted department',
    description: 'Administrators and the PBX API key; 404 unless the department is soft-deleted.',
  },
} satisfies OperationDocs;
