import type { OperationDocs } from '../../../../http/resource-routes.js';

/** The OpenAPI text of employees.routes.ts, by operation id. */
export const EMPLOYEES_DOCS = {
  listEmployees: {
    summary: 'Employees of the PBX',
    description:
      'Administrators and the PBX API key. Sorted by name in the PBX\u2019s name order (`sort=name`) unless `sort` says otherwise. `search`: every word must match the first name, the last name or the ext_id. `filter[user_id]`: the employee linked to that user; `filter[has_user]`; `filter[trashed]` (without, with, only).',
  },
  createEmployee: {
    summary: 'Create an employee, optionally linked to a user',
    description:
      'Administrators and the PBX API key. `ext_id` is unique within the PBX, soft-deleted employees included (422). `user_id` links a user: an active or disabled user of the PBX not linked to another employee (422 naming that employee otherwise); the user\u2019s `employee_id` and `/me` show the link.',
  },
  getEmployee: {
    summary: 'One employee',
    description: "Administrators and the PBX API key. A soft-deleted employee, or another tenant's, is 404.",
  },
  updateEmployee: {
    summary: 'Change an employee or its user link (only the fields sent)',
    description:
      'Administrators and the PBX API key. This is the one way to set a user\u2019s `employee_id`: `user_id` links a user (same rules as on create; the previously linked user is unlinked), null unlinks.',
  },
  deleteEmployee: {
    summary: 'Soft-delete an employee (restorable); unlinks its user',
    description:
      'Administrators and the PBX API key. The linked user is unlinked in the same transaction, so its `employee_id` and `/me` show null and it may be linked to another employee. The ext_id stays taken until the employee is restored.',
  },
  restoreEmployee: {
    summary: 'Restore a soft-deleted employee (without a user)',
    description: 'Administrators and the PBX API key; 404 unless the employee is soft-deleted. It comes back unlinked: link a user again with PATCH `user_id`.',
  },
} satisfies OperationDocs;
