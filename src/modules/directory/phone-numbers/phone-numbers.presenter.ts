import type { Static } from '@sinclair/typebox';
import type { PhoneNumberRow } from './phone-numbers.queries.js';
import type { DESTINATION_TYPES, PhoneNumber } from './phone-numbers.schemas.js';

/** A phone number as the contract shows it. */
export function presentPhoneNumber(row: PhoneNumberRow): Static<typeof PhoneNumber> {
  return {
    id: row.id,
    pbx_id: row.pbx_id,
    voip_id: row.voip_id,
    number: row.number,
    label: row.label,
    destination_type: row.destination_type as (typeof DESTINATION_TYPES)[number],
    destination_id: row.destination_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
}
