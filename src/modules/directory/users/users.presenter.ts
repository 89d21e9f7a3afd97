import type { Static } from '@sinclair/typebox';
import { flag, type UserRow } from '../shared/access.js';
import { USER_FLAGS, type User } from './users.schemas.js';

/** A user as the contract shows it: permission flags as booleans, never its password. */
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
    ...(Object.fromEntries(USER_FLAGS.map((name) => [name, flag(row[name])])) as Record<(typeof USER_FLAGS)[number], boolean>),
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
