import type { Static } from '@sinclair/typebox';
import type { PhoneButtonRow } from './phone-buttons.queries.js';
import type { PhoneButton } from './phone-buttons.schemas.js';

/** A phone button as the contract shows it. */
export function presentPhoneButton(row: PhoneButtonRow): Static<typeof PhoneButton> {
  return {
    id: row.id,
    user_id: row.user_id,
    sip_device_id: row.sip_device_id,
    position: row.position,
    type: row.type as Static<typeof PhoneButton>['type'],
    value: row.value,
    label: row.label,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
