import type { Static } from '@sinclair/typebox';
import { flag, type UserRow } from '../shared/access.js';
import type { User } from './users.schemas.js';

/**
 * A user as the contract shows it: permission flags as booleans (each of `USER_FLAGS`, written out:
 * the type names every field, and one object literal is what a page of users costs least to build),
 * never its password.
 */
export function presentUser(row: UserRow): Static<typeof User> {
  return {
    id: row.id,
    pbx_id: row.pbx_id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    language: row.language,
    role: row.role,
    status: row.status,
    email_verified_at: row.email_verified_at,
    allow_telephony: flag(row.allow_telephony),
    allow_dnd: flag(row.allow_dnd),
    allow_change_twinning_dest: flag(row.allow_change_twinning_dest),
    allow_call_forwarding: flag(row.allow_call_forwarding),
    allow_manage_global_contacts: flag(row.allow_manage_global_contacts),
    extension_roaming: flag(row.extension_roaming),
    allow_status_changer: flag(row.allow_status_changer),
    allow_manage_voicemail_parameters: flag(row.allow_manage_voicemail_parameters),
    show_in_address_book: flag(row.show_in_address_book),
    vip: flag(row.vip),
    allow_anonymous_calls: flag(row.allow_anonymous_calls),
    is_shadow: flag(row.is_shadow),
    call_recordings_visibility: row.call_recordings_visibility,
    call_information_visibility: row.call_information_visibility,
    voicemail_type: row.voicemail_type,
    voicemail_destination: row.voicemail_destination,
    concurrent_calls: row.concurrent_calls,
    sync_source: row.sync_source,
    identity_provider_uid: row.identity_provider_uid,
    employee_id: row.employee_id,
    tempus: row.tempus,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
}
