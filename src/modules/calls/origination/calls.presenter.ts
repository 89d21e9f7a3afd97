import type { Selectable } from 'kysely';
import type { PlacedCallTable } from '../calls.tables.js';

export type PlacedCallRow = Selectable<PlacedCallTable>;

/** A placed call as `GET /calls/{id}` and the call's webhook show it. */
export function presentPlacedCall(row: PlacedCallRow) {
  return {
    id: row.id,
    user_id: row.user_id,
    engine: row.engine,
    destination: row.destination,
    caller_identity_id: row.caller_identity_id,
    status: row.status,
    reason: row.reason,
    cdr_id: row.cdr_id === null ? null : Number(row.cdr_id),
    created_at: row.created_at,
    updated_at: row.updated_at,
    ended_at: row.ended_at,
  };
}
