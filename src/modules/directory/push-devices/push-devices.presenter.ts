import type { Static } from '@sinclair/typebox';
import { flag } from '../shared/access.js';
import type { PushDeviceRow } from './push-devices.queries.js';
import type { PushDevice } from './push-devices.schemas.js';

/** A push device as the contract shows it. */
export function presentPushDevice(row: PushDeviceRow): Static<typeof PushDevice> {
  return {
    id: row.id,
    name: row.name,
    user_id: row.user_id,
    twinning_id: row.twinning_id,
    type: row.type,
    token: row.token,
    is_active: flag(row.is_active),
    last_used_at: row.last_used_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
