import type { Static } from '@sinclair/typebox';
import { flag } from '../shared/access.js';
import type { ForwardRow } from './forwards.queries.js';
import type { Forward } from './forwards.schemas.js';

/** A call forward as the contract shows it. */
export function presentForward(row: ForwardRow): Static<typeof Forward> {
  return {
    id: row.id,
    user_id: row.user_id,
    type: row.type,
    destination_type: row.destination_type,
    destination: row.destination,
    delay: row.delay,
    enabled: flag(row.enabled),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
