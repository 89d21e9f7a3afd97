import type { Static } from '@sinclair/typebox';
import type { Profile, UserRecord } from './me.schemas.js';
import type { ProfileRow, UserWithPbxRow } from './me.queries.js';

const flag = (value: number) => value === 1;

function contactSync(row: ProfileRow): Static<typeof Profile>['integrations'] {
  const stored = JSON.parse(row.contact_sync || '{}') as Record<string, { fetch_contacts?: boolean }>;
  return {
    google: { fetch_contacts: stored.google?.fetch_contacts ?? false },
    microsoft: { fetch_contacts: stored.microsoft?.fetch_contacts ?? false },
  };
}

export function presentProfile(row: ProfileRow): Static<typeof Profile> {
  return {
    id: row.id,
    pbx_id: row.pbx_id,
    full_name_with_email: `${`${row.first_name} ${row.last_name}`.trim()} <${row.email}>`,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    language: row.language,
    access_token: null,
    email_verified_at: row.email_verified_at,
    status: row.status,
    allow_telephony: flag(row.allow_telephony),
    allow_dnd: flag(row.allow_dnd),
    allow_change_twinning_dest: flag(row.allow_change_twinning_dest),
    allow_call_forwarding: flag(row.allow_call_forwarding),
    allow_manage_global_contacts: flag(row.allow_manage_global_contacts),
    call_recordings_visibility: row.call_recordings_visibility,
    extension_roaming: flag(row.extension_roaming),
    call_information_visibility: row.call_information_visibility,
    allow_status_changer: flag(row.allow_status_changer),
    allow_manage_voicemail_parameters: flag(row.allow_manage_voicemail_parameters),
    show_in_address_book: flag(row.show_in_address_book),
    voicemail_type: row.voicemail_type,
    voicemail_destination: row.voicemail_destination,
    concurrent_calls: row.concurrent_calls,
    vip: flag(row.vip),
    sync_source: row.sync_source,
    allow_anonymous_calls: flag(row.allow_anonymous_calls),
    identity_provider_uid: row.identity_provider_uid,
    is_shadow: flag(row.is_shadow),
    created_at: row.created_at,
    updated_at: row.updated_at,
    webrtc_configuration: row.directory.webrtc_configuration,
    extensions: row.directory.extensions,
    sipDevices: row.directory.sipDevices,
    groups: row.directory.groups,
    twinnings: row.directory.twinnings,
    caller_identities: row.directory.caller_identities,
    integrations: contactSync(row),
    pbx: { id: row.pbx_id, name: row.pbx_name, country_code: row.pbx_country_code, timezone: row.pbx_timezone, plan: row.pbx_plan },
    employee_id: row.employee_id,
    tempus: row.tempus,
  };
}

export function presentUserRecord(row: UserWithPbxRow): Static<typeof UserRecord> {
  return {
    id: row.id,
    pbx_id: row.pbx_id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
