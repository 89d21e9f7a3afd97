import type { Static } from '@sinclair/typebox';
import { flag } from '../shared/access.js';
import type { TwinningRow } from './twinnings.queries.js';
import type { Twinning } from './twinnings.schemas.js';

/** A twinning as the contract shows it. */
export function presentTwinning(row: TwinningRow): Static<typeof Twinning> {
  return {
    id: row.id,
    user_id: row.user_id,
    status: row.status,
    phone_number: row.phone_number,
    delay: row.delay,
    sync_source: row.sync_source,
    type: row.type,
    dial_strategy: row.dial_strategy,
    fmc_enabled: flag(row.fmc_enabled),
    backup_phone_number: row.backup_phone_number,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
