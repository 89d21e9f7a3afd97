import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Usage } from '../../platform/errors.js';
import { defineUsageFinder, type ReferencedKind } from '../../platform/references.js';
import type { Tenant } from '../../platform/tenancy.js';

/** The contract's step target types, by the kind of resource they name. */
export const STEP_TARGET_TYPES = { call_flow: 'App\\Models\\CallFlow', ivr: 'App\\Models\\Ivr' } as const;

/**
 * What in routing points at a resource: IVRs (announcement, music on hold) and their live steps,
 * call-flow nodes, queues (announcement, music on hold, overflow) and their members. Soft-deleted
 * routing rows do not hold a resource.
 */
export async function routingUsages(db: Kysely<DB>, tenant: Tenant, kind: ReferencedKind, id: string): Promise<Usage[]> {
  const pbx = tenant.pbxId;
  const usages: Usage[] = [];
  if (kind === 'sound_file') {
    const ivrs = await db
      .selectFrom('ivrs')
      .select(['id', 'name', 'announcement_id'])
      .where('pbx_id', '=', pbx)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('announcement_id', '=', id), eb('music_on_hold_id', '=', id)]))
      .execute();
    for (const ivr of ivrs) usages.push({ type: 'ivr', id: ivr.id, name: ivr.name, path: ivr.announcement_id === id ? 'announcement' : 'musicOnHold' });
    const queues = await db
      .selectFrom('queues')
      .select(['id', 'name', 'announcement_id'])
      .where('pbx_id', '=', pbx)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('announcement_id', '=', id), eb('music_on_hold_id', '=', id)]))
      .execute();
    for (const queue of queues)
      usages.push({ type: 'queue', id: queue.id, name: queue.name, path: queue.announcement_id === id ? 'announcement_id' : 'music_on_hold_id' });
  }
  if (kind === 'ivr' || kind === 'call_flow') {
    const steps = await db
      .selectFrom('ivr_steps')
      .innerJoin('ivrs', 'ivrs.id', 'ivr_steps.ivr_id')
      .select(['ivr_steps.id', 'ivr_steps.option', 'ivrs.name', 'ivrs.id as ivr_id'])
      .where('ivr_steps.pbx_id', '=', pbx)
      .where('ivr_steps.target_id', '=', id)
      .where('ivr_steps.target_type', '=', STEP_TARGET_TYPES[kind])
      .where('ivr_steps.deleted_at', 'is', null)
      .where('ivrs.deleted_at', 'is', null)
      .execute();
    for (const step of steps) usages.push({ type: 'ivr_step', id: step.id, name: step.name, path: `ivrs/${step.ivr_id}/steps/${step.option}` });
  }
  const nodes = await db
    .selectFrom('call_flow_references')
    .innerJoin('call_flows', 'call_flows.id', 'call_flow_references.call_flow_id')
    .select(['call_flows.id', 'call_flows.name', 'call_flow_references.node_key', 'call_flow_references.field'])
    .where('call_flow_references.pbx_id', '=', pbx)
    .where('call_flow_references.target_id', '=', id)
    .where('call_flow_references.target_type', '=', kind)
    .where('call_flows.deleted_at', 'is', null)
    .execute();
  for (const node of nodes) usages.push({ type: 'call_flow', id: node.id, name: node.name, path: `nodes.${node.node_key}.${node.field}` });
  if (kind === 'user' || kind === 'extension' || kind === 'queue' || kind === 'ivr' || kind === 'call_flow') {
    const overflowTypes = kind === 'user' ? ['user', 'voicemail'] : [kind];
    const queues = await db
      .selectFrom('queues')
      .select(['id', 'name'])
      .where('pbx_id', '=', pbx)
      .where('deleted_at', 'is', null)
      .where('overflow_target_id', '=', id)
      .where('overflow_type', 'in', overflowTypes)
      .execute();
    for (const queue of queues) usages.push({ type: 'queue', id: queue.id, name: queue.name, path: 'overflow' });
  }
  if (kind === 'user' || kind === 'extension') {
    const members = await db
      .selectFrom('queue_members')
      .innerJoin('queues', 'queues.id', 'queue_members.queue_id')
      .select(['queues.id', 'queues.name'])
      .where('queue_members.pbx_id', '=', pbx)
      .where('queue_members.member_id', '=', id)
      .where('queue_members.member_type', '=', kind)
      .where('queues.deleted_at', 'is', null)
      .execute();
    for (const queue of members) usages.push({ type: 'queue_member', id: queue.id, name: queue.name, path: 'members' });
  }
  return usages;
}

defineUsageFinder(routingUsages);
