import type { DepartmentRow } from './departments.queries.js';
import type { DepartmentView } from './departments.schemas.js';

/** A department as the contract shows it, with its validators in order (the service loads them for a page at once). */
export function presentDepartment(row: DepartmentRow, validatorIds: string[]): DepartmentView {
  return {
    id: row.id,
    name: row.name,
    company_id: row.company_id,
    validator_ids: validatorIds,
    delete_date: row.deleted_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
