import type { Static } from '@sinclair/typebox';
import { flag } from '../shared/access.js';
import type { DndRow } from './dnd.queries.js';
import type { DndRule } from './dnd.schemas.js';

/** A DND rule as the contract shows it: its caller identity and extension by their PBX ids. */
export function presentDnd(row: DndRow): Static<typeof DndRule> {
  return {
    id: row.id,
    user_id: row.user_id,
    type: row.type,
    caller_identity_id: row.caller_identity_voip_id ?? null,
    extension_id: row.extension_voip_id ?? null,
    status: flag(row.status),
  };
}
