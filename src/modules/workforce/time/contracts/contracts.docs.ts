import type { OperationDocs } from '../../../../http/resource-routes.js';

/** The OpenAPI text of contracts.routes.ts, by operation id. */
export const CONTRACTS_DOCS = {
  listUserCompanies: {
    summary: "An employee's contracts with their companies (paginated)",
    description:
      'Readable by the employee itself (a user whose employee_id is this employee), by an administrator of the PBX for any of its employees, and by the PBX API key; ' +
      'any other user is 403 (before the employee is looked up), an unknown or deleted employee 404 for those who may ask. ' +
      '`filter[from]`: contracts starting on or after the day; `filter[to]`: contracts ending on or before it, so open-ended contracts (which never end) are left out; ' +
      '`filter[to]` before `filter[from]` is 422. `filter[active]` (true, false, 1, 0): active = started on or before the tenant\u2019s today (in the PBX\u2019s time zone) and not ended before it. ' +
      'Without `filter[active]`, `main_company` is 1 on the contract active today (if several, the stored main one, else the earliest started) and 0 on every other, ' +
      'so no contract is flagged when none is active; with it, the stored flag. ' +
      '`sort`: `from` (contract_start) and `to` (contract_end, open-ended last), `-` for descending; default `-from` (the latest contract first). ' +
      'Deleted contracts are left out; `filter[trashed]=with|only` shows them to administrators and the PBX key (403 for the employee).',
  },
  createUserCompany: {
    summary: 'Add a contract to an employee (administrators, PBX API key)',
    description:
      'contract_start is required; contract_end (inclusive, null = open-ended) is on or after it. participation is above 0 up to 1 (1.0 = full time), or null. ' +
      'company_id and department_id must be live rows of the PBX, and a department that belongs to a company must belong to the contract\u2019s. ' +
      'Parallel contracts are allowed; main_company (0, 1, true, false) makes this the employee\u2019s one stored main contract and clears the flag on the others. ' +
      'Unknown or deleted employee: 404.',
  },
  getUserCompany: {
    summary: 'One contract (administrators, PBX API key)',
    description: '`main_company` is the stored flag. Another tenant\u2019s or a deleted contract is 404.',
  },
  updateUserCompany: {
    summary: 'Change a contract (administrators, PBX API key)',
    description:
      'Changes the fields sent, with the rules of creation checked against the result (contract_end on or after contract_start). ' +
      'main_company true or 1 clears the flag on the employee\u2019s other contracts; false or 0 clears it on this one only.',
  },
  deleteUserCompany: {
    summary: 'Soft-delete a contract (administrators, PBX API key)',
    description: 'The contract leaves the lists and stops counting for required work time; it can be restored.',
  },
  restoreUserCompany: {
    summary: 'Restore a soft-deleted contract (administrators, PBX API key)',
    description:
      'A restored main contract stays main unless another contract of the employee was made main meanwhile (then it comes back with main_company 0). 404 when it is not deleted.',
  },
} satisfies OperationDocs;
