import type { OperationDocs } from '../../../../http/resource-routes.js';

/** The OpenAPI text of companies.routes.ts, by operation id. */
export const COMPANIES_DOCS = {
  listCompanies: {
    summary: 'Companies of the PBX (legal employers)',
    description:
      'Any user of the PBX and its PBX API key. `search` matches the name or the city; `filter[country_cc]`; `filter[trashed]` (without, with, only) shows soft-deleted ones with their `delete_date`. Sorted by name unless `sort` says otherwise.',
  },
  createCompany: {
    summary: 'Create a company',
    description:
      'Administrators and the PBX API key. `country_cc` (and `region`, when given) must be a country (region) whose public holidays are known, or 422. `full_time` is the seconds of a full-time week (default 144000 = 40 h); `legalHolidays` the paid-leave days per year (default 26). Names need not be unique.',
  },
  getCompany: {
    summary: 'One company',
    description: "Any user of the PBX and its PBX API key. A soft-deleted company, or another tenant's, is 404 (list it with filter[trashed]).",
  },
  updateCompany: {
    summary: 'Change a company (only the fields sent)',
    description:
      'Administrators and the PBX API key. A new `country_cc` without `region` re-checks the kept region against the new country (422 on `region` when it is not one of its regions).',
  },
  deleteCompany: {
    summary: 'Soft-delete a company (restorable)',
    description:
      'Administrators and the PBX API key. Departments and contracts naming it keep it; its `delete_date` shows there. No new department may name it until it is restored.',
  },
  restoreCompany: {
    summary: 'Restore a soft-deleted company',
    description: 'Administrators and the PBX API key; 404 unless the company is soft-deleted.',
  },
} satisfies OperationDocs;
