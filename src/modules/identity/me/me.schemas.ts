import { Type } from '@sinclair/typebox';
import { DateTime, MessageData, Nullable, Uuid } from '../../../http/schema.js';
import { CallerIdentity, Extension, SipDevice, Twinning, UserGroup, WebrtcSummary } from '../../directory/index.js';

const ContactSync = Type.Object({ fetch_contacts: Type.Boolean() });

export const Profile = Type.Object(
  {
    id: Uuid(),
    pbx_id: Type.String(),
    full_name_with_email: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String({ format: 'email' }),
    language: Type.String(),
    access_token: Nullable(Type.String(), { description: 'Always null: tokens are stored hashed and never echoed.' }),
    email_verified_at: Nullable(DateTime()),
    status: Type.String(),
    allow_telephony: Type.Boolean(),
    allow_dnd: Type.Boolean(),
    allow_change_twinning_dest: Type.Boolean(),
    allow_call_forwarding: Type.Boolean(),
    allow_manage_global_contacts: Type.Boolean(),
    call_recordings_visibility: Nullable(Type.String()),
    extension_roaming: Type.Boolean(),
    call_information_visibility: Nullable(Type.String()),
    allow_status_changer: Type.Boolean(),
    allow_manage_voicemail_parameters: Type.Boolean(),
    show_in_address_book: Type.Boolean(),
    voicemail_type: Nullable(Type.String()),
    voicemail_destination: Nullable(Type.String()),
    concurrent_calls: Nullable(Type.Integer()),
    vip: Type.Boolean(),
    sync_source: Nullable(Type.String()),
    allow_anonymous_calls: Type.Boolean(),
    identity_provider_uid: Nullable(Type.String()),
    is_shadow: Type.Boolean(),
    created_at: DateTime(),
    updated_at: DateTime(),
    // Each item as its own module presents it; WebRTC without its password and voicemail PIN.
    webrtc_configuration: Nullable(Type.Omit(WebrtcSummary, [])),
    extensions: Type.Array(Extension),
    sipDevices: Type.Array(SipDevice),
    groups: Type.Array(UserGroup),
    twinnings: Type.Array(Twinning),
    caller_identities: Type.Array(CallerIdentity),
    integrations: Type.Object(
      { google: ContactSync, microsoft: ContactSync },
      { description: 'Address-book sync per external provider, keyed by provider name.' },
    ),
    pbx: Type.Object({ id: Uuid(), name: Type.String(), country_code: Type.String(), timezone: Type.String(), plan: Type.String() }),
    employee_id: Nullable(
      Uuid({ description: 'The employee this user is (workforce, set on the employee with user_id); null when none or when it is soft-deleted.' }),
    ),
    tempus: Nullable(Type.String()),
  },
  { $id: 'Profile' },
);

export const ProfileResponse = MessageData(Type.Ref(Profile));

export const UserRecord = Type.Object(
  {
    id: Uuid(),
    pbx_id: Uuid(),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String({ format: 'email' }),
    status: Type.String(),
    created_at: Nullable(DateTime()),
    updated_at: Nullable(DateTime()),
  },
  { $id: 'UserRecord' },
);
