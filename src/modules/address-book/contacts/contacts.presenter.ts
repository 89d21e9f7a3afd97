import type { Static } from '@sinclair/typebox';
import { perUserFields } from '../../../http/principal-fields.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { Contact, ContactGroup, ContactView, HandlingStrategy } from './contacts.schemas.js';
import type { ContactRelations, ContactRow, GroupRow, NumberRow, UserRefRow } from './contacts.queries.js';
import { canEdit, type ContactActor } from './contact.policy.js';

const flag = (value: number) => value === 1;
type ContactNumberView = ContactView['numbers'][number];

export function presentNumber(row: NumberRow): ContactNumberView {
  return {
    id: row.id,
    phone_number: row.phone_number,
    phone_number_as_typed: row.phone_number_raw,
    label: row.label,
    type: row.type as ContactNumberView['type'],
    speed_dial: row.speed_dial,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentGroup(row: GroupRow, users: UserRefRow[]): Static<typeof ContactGroup> {
  return {
    id: row.id,
    pbx_id: row.pbx_id,
    default_internal_call_flow_id: row.default_internal_call_flow_id,
    default_external_call_flow_id: row.default_external_call_flow_id,
    extension_id_shown_outside_the_group: row.extension_id_shown_outside_the_group,
    default_caller_identity_id: row.default_caller_identity_id,
    external_uid: row.external_uid,
    allow_call_pickups: flag(row.allow_call_pickups),
    name: row.name,
    description: row.description,
    allow_default_pbxes_outgoing_phone_numbers: flag(row.allow_default_pbxes_outgoing_phone_numbers),
    display_tab_to_everyone_inside_voxbi: flag(row.display_tab_to_everyone_inside_voxbi),
    created_at: row.created_at,
    updated_at: row.updated_at,
    users: users.map(presentUserRef),
  };
}

const presentUserRef = (u: UserRefRow) => ({ id: u.id, first_name: u.first_name, last_name: u.last_name, email: u.email });

export const DEFAULT_HANDLING: Static<typeof HandlingStrategy> = {
  type: 'default',
  call_flow_id: null,
  extension_id: null,
  user_id: null,
  sip_device_id: null,
};

export function parseHandling(stored: string | null): Static<typeof HandlingStrategy> {
  return stored ? { ...DEFAULT_HANDLING, ...(JSON.parse(stored) as Partial<Static<typeof HandlingStrategy>>) } : DEFAULT_HANDLING;
}

export interface PresentOptions {
  principal: Principal;
  /** The caller to the contact policy (decides `editable`). */
  actor: ContactActor;
  includeOwner: boolean;
}

/** A contact as the contract names it; `editable` and `is_favorite` only for user tokens. */
export function presentContact(row: ContactRow, relations: ContactRelations, options: PresentOptions): Static<typeof Contact> {
  const owner = row.private_owner_id ? (relations.owners.get(row.private_owner_id) ?? null) : null;
  return {
    id: row.id,
    pbx_id: row.pbx_id,
    company_name: row.company_name,
    department: row.department,
    job_title: row.job_title,
    name1: row.name1,
    name2: row.name2,
    email: row.email,
    notes: row.notes,
    vip: flag(row.vip),
    numbers: (relations.numbers.get(row.id) ?? []).map(presentNumber),
    is_private: row.private_owner_id !== null,
    private_owner_id: row.private_owner_id,
    ...perUserFields(options.principal, () => ({
      editable: canEdit(options.actor, row),
      is_favorite: relations.favorites.has(row.id),
    })),
    groups: (relations.groups.get(row.id) ?? []).map((g) => presentGroup(g, g.users)),
    is_blocked_globally: flag(row.is_blocked_globally),
    blocked_by_users: (relations.blockedBy.get(row.id) ?? []).map(presentUserRef),
    handling_strategy: parseHandling(row.handling_strategy),
    ...(options.includeOwner ? { private_owner: owner ? presentUserRef(owner) : null } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
}
