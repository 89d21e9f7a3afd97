import type { Static } from '@sinclair/typebox';
import { flag } from '../shared/access.js';
import type { SipDeviceRow } from './sip-devices.queries.js';
import type { CODECS, SipDevice, TRANSPORTS } from './sip-devices.schemas.js';

/** A SIP device as the contract shows it, never with its secret. */
export function presentSipDevice(row: SipDeviceRow): Static<typeof SipDevice> {
  return {
    id: row.id,
    pbx_id: row.pbx_id,
    user_id: row.user_id,
    extension_id: row.extension_id,
    name: row.name,
    username: row.username,
    transport: row.transport as (typeof TRANSPORTS)[number],
    codecs: JSON.parse(row.codecs) as Array<(typeof CODECS)[number]>,
    mac_address: row.mac_address,
    model: row.model,
    enabled: flag(row.enabled),
    roaming_extension_id: row.roaming_extension_id,
    roaming_user_id: row.roaming_user_id,
    roaming_since: row.roaming_since,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
}
