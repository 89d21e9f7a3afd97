import type { Generated } from 'kysely';
import type { Flag, Timestamp } from '../../db/schema.js';

/** An address-book entry of a PBX; global, or private to `private_owner_id`. */
export interface ContactTable {
  id: string;
  pbx_id: string;
  name1: string;
  name2: string | null;
  email: string | null;
  /** Lower-cased e-mail, for the import matching rule and search. */
  email_normalized: string | null;
  company_name: string | null;
  department: string | null;
  job_title: string | null;
  notes: string | null;
  vip: Flag;
  private_owner_id: string | null;
  is_blocked_globally: Flag;
  /** JSON `{type, call_flow_id, extension_id, user_id, sip_device_id}` or null. */
  handling_strategy: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

export interface ContactNumberTable {
  id: string;
  contact_id: string;
  pbx_id: string;
  /** As the user typed it. */
  phone_number_raw: string;
  /** E.164, the key of caller lookup and import matching. */
  phone_number: string;
  label: string | null;
  type: string;
  /** Unique per PBX (a database constraint). */
  speed_dial: string | null;
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContactGroupTable {
  id: string;
  pbx_id: string;
  name: string;
  description: string | null;
  default_internal_call_flow_id: string | null;
  default_external_call_flow_id: string | null;
  extension_id_shown_outside_the_group: string | null;
  default_caller_identity_id: string | null;
  external_uid: string | null;
  allow_call_pickups: Flag;
  allow_default_pbxes_outgoing_phone_numbers: Flag;
  display_tab_to_everyone_inside_voxbi: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContactGroupMemberTable {
  group_id: string;
  contact_id: string;
}

export interface ContactGroupUserTable {
  group_id: string;
  user_id: string;
}

/** Per-user marks on a contact: favorites and per-user blocks. */
export interface ContactUserMarkTable {
  contact_id: string;
  user_id: string;
  created_at: Timestamp;
}

export interface AddressBookTables {
  contacts: ContactTable;
  contact_numbers: ContactNumberTable;
  contact_groups: ContactGroupTable;
  contact_group_members: ContactGroupMemberTable;
  contact_group_users: ContactGroupUserTable;
  contact_favorites: ContactUserMarkTable;
  contact_blocks: ContactUserMarkTable;
}
