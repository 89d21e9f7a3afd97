/**
 * Row types of the telephony directory (migration 0002): extensions, SIP devices, phone numbers,
 * caller identities, twinnings, DND rules, forwards, settings, groups, buttons, push devices,
 * WebRTC configuration and in-call state. Same storage rules as the foundation: booleans 0/1,
 * timestamps ISO text, JSON as text.
 */
import type { Generated } from 'kysely';
import type { Flag, Timestamp } from '../../db/columns.js';

export interface ExtensionTable {
  id: string;
  pbx_id: string;
  /** Numeric id of the extension on the PBX engine, unique per PBX. */
  voip_id: number;
  user_id: string | null;
  number: string;
  name: string;
  voicemail_enabled: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

export interface ExtensionFavoriteTable {
  user_id: string;
  extension_id: string;
  created_at: Timestamp;
}

export interface SipDeviceTable {
  id: string;
  pbx_id: string;
  user_id: string | null;
  extension_id: string | null;
  name: string;
  username: string;
  /** SIP password sealed with the server key (SecretBox). */
  secret_sealed: string;
  transport: string;
  /** JSON array of codec names, in preference order. */
  codecs: string;
  mac_address: string | null;
  model: string | null;
  enabled: Flag;
  roaming_extension_id: Generated<string | null>;
  roaming_user_id: Generated<string | null>;
  roaming_since: Generated<Timestamp | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

export interface PhoneNumberTable {
  id: string;
  pbx_id: string;
  voip_id: number;
  number: string;
  label: string | null;
  destination_type: string;
  destination_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

export interface CallerIdentityTable {
  id: string;
  pbx_id: string;
  voip_id: number;
  /** null: every user of the PBX may present it. */
  user_id: string | null;
  phone_number_id: string;
  name: string;
  external_caller_number: string;
  external_caller_extension: string;
  is_default: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

/** Scoped to a tenant through its user: the contract gives twinnings no tenant column. */
export interface TwinningTable {
  id: string;
  user_id: string;
  status: 'enabled' | 'disabled';
  phone_number: string | null;
  delay: number;
  sync_source: 'manual' | 'provision' | 'legacy_import';
  type: 'mobile' | 'teams';
  dial_strategy: 'gsm_only' | 'voip_only' | 'voip_and_gsm_fallback';
  fmc_enabled: number;
  backup_phone_number: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserDndTable {
  id: string;
  pbx_id: string;
  user_id: string;
  /** `type:caller_identity_id:extension_id`, unique per user: one rule per target. */
  rule_key: string;
  type: 'internal' | 'external';
  caller_identity_id: string | null;
  extension_id: string | null;
  status: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ForwardTable {
  id: string;
  pbx_id: string;
  user_id: string;
  type: 'unconditional' | 'busy' | 'no_answer' | 'unavailable';
  destination_type: 'number' | 'extension' | 'voicemail';
  destination: string | null;
  delay: number;
  enabled: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserSettingTable {
  id: string;
  pbx_id: string;
  user_id: string;
  type: string;
  settings: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserGroupTable {
  id: string;
  pbx_id: string;
  user_id: string;
  name: string;
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserGroupMemberTable {
  user_group_id: string;
  user_id: string;
  created_at: Timestamp;
}

export interface PhoneButtonTable {
  id: string;
  pbx_id: string;
  user_id: string;
  sip_device_id: string;
  position: number;
  type: string;
  value: string | null;
  label: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PushDeviceTable {
  id: string;
  pbx_id: string;
  user_id: string;
  twinning_id: string | null;
  name: string | null;
  type: string;
  token: string;
  is_active: number;
  last_used_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebrtcConfigurationTable {
  user_id: string;
  pbx_id: string;
  hostname: string;
  port: number;
  username: string;
  password_sealed: string;
  voicemail_pin_sealed: string | null;
  call_pickup_restrictions: 'yes' | 'own_groups_only' | 'no';
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InCallStateTable {
  user_id: string;
  pbx_id: string;
  in_call: number;
  in_call_updated_at: Timestamp;
  expires_at: Timestamp;
  ttl_seconds: number;
}

export interface DirectoryTables {
  extensions: ExtensionTable;
  extension_favorites: ExtensionFavoriteTable;
  sip_devices: SipDeviceTable;
  phone_numbers: PhoneNumberTable;
  caller_identities: CallerIdentityTable;
  twinnings: TwinningTable;
  user_dnds: UserDndTable;
  forwards: ForwardTable;
  user_settings: UserSettingTable;
  user_groups: UserGroupTable;
  user_group_members: UserGroupMemberTable;
  phone_buttons: PhoneButtonTable;
  push_devices: PushDeviceTable;
  webrtc_configurations: WebrtcConfigurationTable;
  in_call_states: InCallStateTable;
}
