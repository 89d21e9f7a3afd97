import type { AbsenceTypeRow } from './absence-types.queries.js';
import type { AbsenceTypeView } from './absence-types.schemas.js';

/** An absence type as the contract shows it (`deleted_at` for a soft-deleted one). */
export function presentAbsenceType(row: AbsenceTypeRow): AbsenceTypeView {
  return {
    id: row.id,
    pbx_id: row.pbx_id,
    name: row.name,
    type: row.type,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
}
