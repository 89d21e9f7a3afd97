import { fullName, type NameOrder } from '../full-name.js';
import type { EmployeeRow } from './employees.queries.js';
import type { EmployeeView } from './employees.schemas.js';

/** An employee as the contract shows it: `fullName` in the tenant's name order, `delete_date` for a soft-deleted one. */
export function presentEmployee(row: EmployeeRow, order: NameOrder): EmployeeView {
  return {
    id: row.id,
    ext_id: row.ext_id,
    first_name: row.first_name,
    last_name: row.last_name,
    fullName: fullName(row, order),
    user_id: row.user_id,
    delete_date: row.deleted_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
