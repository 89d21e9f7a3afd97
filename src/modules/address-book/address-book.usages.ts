import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Usage } from '../../platform/errors.js';
import { defineUsageFinder, type ReferencedKind } from '../../platform/references.js';
import type { Tenant } from '../../platform/tenancy.js';

/**
 * Contacts whose calls go to a call flow (`handling_strategy`) and contact groups whose calls
 * default to one. A private contact is listed without its name.
 */
async function callFlowUsages(db: Kysely<DB>, tenant: Tenant, kind: ReferencedKind, id: string): Promise<Usage[]> {
  if (kind !== 'call_flow') return [];
  const [contacts, groups] = await Promise.all([
    db
      .selectFrom('contacts')
      .select(['id', 'name1', 'private_owner_id'])
      .where('pbx_id', '=', tenant.pbxId)
      .where('deleted_at', 'is', null)
      // The strategy is JSON written by the contacts service (JSON.stringify: no spaces).
      .where('handling_strategy', 'like', sql<string>`${`%"call_flow_id":"${id}"%`}`)
      .execute(),
    db
      .selectFrom('contact_groups')
      .select(['id', 'name', 'default_internal_call_flow_id'])
      .where('pbx_id', '=', tenant.pbxId)
      .where((eb) => eb.or([eb('default_internal_call_flow_id', '=', id), eb('default_external_call_flow_id', '=', id)]))
      .execute(),
  ]);
  return [
    ...contacts.map((c) => ({ type: 'contact', id: c.id, name: c.private_owner_id ? 'Private contact' : c.name1, path: 'handling_strategy.call_flow_id' })),
    ...groups.map((g) => ({
      type: 'contact_group',
      id: g.id,
      name: g.name,
      path: g.default_internal_call_flow_id === id ? 'default_internal_call_flow_id' : 'default_external_call_flow_id',
    })),
  ];
}

defineUsageFinder(callFlowUsages);
