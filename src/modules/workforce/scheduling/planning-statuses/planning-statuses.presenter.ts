import type { PlanningStatusRow } from './planning-statuses.queries.js';
import type { PlanningStatusView } from './planning-statuses.schemas.js';

/** A planning status (or sub-status, `parentId` set) as the contract shows it. */
export function presentPlanningStatus(row: PlanningStatusRow): PlanningStatusView {
  return { id: row.id, name: row.name, parentId: row.parent_id, color: row.color, createdAt: row.created_at, updatedAt: row.updated_at };
}
