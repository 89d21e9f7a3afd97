import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';

/** Where the PBX sends a call from a known caller instead of the dialled number's own routing. */
export interface CallerRoute {
  source: 'contact' | 'contact_group';
  id: string;
  name: string;
  contact: string;
  type: 'call_flow' | 'extension' | 'user' | 'sip_device';
  targetId: string;
}

/**
 * The routing a global contact with this number (E.164) asks for: the contact's own handling
 * strategy when it is not `default`, else the default external call flow of its first group that
 * has one (by name). The oldest such contact wins; private contacts route nothing.
 */
export async function callerRoute(db: Kysely<DB>, tenant: Tenant, e164: string): Promise<CallerRoute | null> {
  const contact = await db
    .selectFrom('contacts')
    .innerJoin('contact_numbers', 'contact_numbers.contact_id', 'contacts.id')
    .select(['contacts.id', 'contacts.name1', 'contacts.name2', 'contacts.handling_strategy'])
    .where('contacts.pbx_id', '=', tenant.pbxId)
    .where('contact_numbers.phone_number', '=', e164)
    .where('contacts.deleted_at', 'is', null)
    .where('contacts.private_owner_id', 'is', null)
    .orderBy('contacts.created_at')
    .orderBy('contacts.id')
    .executeTakeFirst();
  if (!contact) return null;
  const name = [contact.name1, contact.name2].filter(Boolean).join(' ');
  const strategy = contact.handling_strategy
    ? (JSON.parse(contact.handling_strategy) as {
        type: string;
        call_flow_id: string | null;
        extension_id: string | null;
        user_id: string | null;
        sip_device_id: string | null;
      })
    : null;
  if (strategy && strategy.type !== 'default') {
    const targetId = { call_flow: strategy.call_flow_id, extension: strategy.extension_id, user: strategy.user_id, sip_device: strategy.sip_device_id }[
      strategy.type as CallerRoute['type']
    ];
    if (targetId) return { source: 'contact', id: contact.id, name, contact: name, type: strategy.type as CallerRoute['type'], targetId };
  }
  const group = await db
    .selectFrom('contact_group_members')
    .innerJoin('contact_groups', 'contact_groups.id', 'contact_group_members.group_id')
    .select(['contact_groups.id', 'contact_groups.name', 'contact_groups.default_external_call_flow_id'])
    .where('contact_group_members.contact_id', '=', contact.id)
    .where('contact_groups.pbx_id', '=', tenant.pbxId)
    .where('contact_groups.default_external_call_flow_id', 'is not', null)
    .orderBy('contact_groups.name')
    .executeTakeFirst();
  return group
    ? { source: 'contact_group', id: group.id, name: group.name, contact: name, type: 'call_flow', targetId: group.default_external_call_flow_id! }
    : null;
}
