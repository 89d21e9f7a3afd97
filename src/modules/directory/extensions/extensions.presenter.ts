import type { Static } from '@sinclair/typebox';
import { flag } from '../shared/access.js';
import type { ExtensionRow } from './extensions.queries.js';
import type { Extension } from './extensions.schemas.js';

/** An extension as the contract shows it (without its per-user and included fields). */
export function presentExtension(row: ExtensionRow): Static<typeof Extension> {
  return {
    id: row.id,
    pbx_id: row.pbx_id,
    voip_id: row.voip_id,
    number: row.number,
    name: row.name,
    user_id: row.user_id,
    voicemail_enabled: flag(row.voicemail_enabled),
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
}
