/** Row types of the foundation (migration 0001): PBXs (the tenants), users, tokens, API keys, one-time secrets, settings. */
import type { Generated } from 'kysely';
import type { Flag, Timestamp } from './columns.js';

export interface PbxTable {
  id: string;
  name: string;
  country_code: Generated<string>;
  timezone: Generated<string>;
  plan: Generated<string>;
  rate_limit_per_minute: Generated<number | null>;
  /** How every `fullName` of the workforce reads: `first_last` (Anna Schmit) or `last_first` (Schmit Anna). */
  name_order: Generated<'first_last' | 'last_first'>;
  /** `HH:MM` where a half day's morning ends and its afternoon starts. */
  half_day_split: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserTable {
  id: string;
  pbx_id: string;
  email: string;
  password_hash: Generated<string | null>;
  first_name: string;
  last_name: string;
  language: Generated<string>;
  role: Generated<'admin' | 'user'>;
  status: Generated<'active' | 'disabled'>;
  email_verified_at: Generated<Timestamp | null>;
  allow_telephony: Flag;
  allow_dnd: Flag;
  allow_change_twinning_dest: Flag;
  allow_call_forwarding: Flag;
  allow_manage_global_contacts: Flag;
  call_recordings_visibility: Generated<string | null>;
  extension_roaming: Flag;
  call_information_visibility: Generated<string | null>;
  allow_status_changer: Flag;
  allow_manage_voicemail_parameters: Flag;
  show_in_address_book: Flag;
  voicemail_type: Generated<string | null>;
  voicemail_destination: Generated<string | null>;
  concurrent_calls: Generated<number | null>;
  vip: Flag;
  sync_source: Generated<string | null>;
  allow_anonymous_calls: Flag;
  identity_provider_uid: Generated<string | null>;
  is_shadow: Flag;
  employee_id: Generated<string | null>;
  tempus: Generated<string | null>;
  /** JSON: address-book sync per external provider, e.g. `{"google":{"fetch_contacts":true}}`. */
  contact_sync: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

export interface AccessTokenTable {
  id: string;
  user_id: string;
  pbx_id: string;
  token_hash: string;
  name: string;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
}

export type ApiKeyKind = 'pbx' | 'integration' | 'internal' | 'pbx_server';

export interface ApiKeyTable {
  id: string;
  pbx_id: string | null;
  kind: ApiKeyKind;
  name: string;
  token_hash: string;
  /** First characters of the token, shown in lists so a key can be recognised without revealing it. */
  token_hint: string;
  /** AES-256-GCM sealed token, kept for integration keys so the owner can reveal it again. */
  token_sealed: string | null;
  scopes: string;
  created_by_user_id: string | null;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OneTimeSecretTable {
  id: string;
  user_id: string;
  purpose: 'passwordless' | 'magic_link';
  secret_hash: string;
  attempts: number;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
  created_at: Timestamp;
}

export interface SettingTable {
  key: string;
  value: string;
  updated_at: Timestamp;
}

/** The foundation's tables; db/schema.ts composes them with the platform's and the domains'. */
export interface FoundationTables {
  settings: SettingTable;
  pbxes: PbxTable;
  users: UserTable;
  access_tokens: AccessTokenTable;
  api_keys: ApiKeyTable;
  one_time_secrets: OneTimeSecretTable;
}
