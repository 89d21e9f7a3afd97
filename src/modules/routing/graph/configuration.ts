import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { CallFlowNode } from '../call-flows/call-flow-nodes.js';
import type { IvrDefaultAction, SoundFileType } from '../routing.tables.js';
import { addQueueMembers, queueModel, stepTarget, type QueueModel, type StepModel } from './model.js';

/**
 * The routing's part of what the PBX runs (config-push compiles it): the tenant's live sound files,
 * call flows, IVR menus with their steps and queues with their members, as plain data sorted by id
 * (steps by option, members in the queue's order). Queues and steps are the graph's own models.
 */
export interface RoutingConfiguration {
  soundFiles: RoutingSoundFile[];
  callFlows: RoutingCallFlow[];
  ivrs: RoutingIvr[];
  queues: QueueModel[];
}

export interface RoutingSoundFile {
  id: string;
  name: string;
  type: SoundFileType;
  language: string | null;
}
export interface RoutingCallFlow {
  id: string;
  name: string;
  description: string | null;
  entry: string;
  nodes: CallFlowNode[];
}
export interface RoutingIvr {
  id: string;
  name: string;
  comment: string | null;
  announcementId: string;
  musicOnHoldId: string | null;
  language: string | null;
  defaultAction: IvrDefaultAction;
  timeoutSeconds: number;
  maxRepeats: number;
  steps: RoutingIvrStep[];
}
/** A step as the graph models it, without its row id (the PBX knows a step by its option). */
export type RoutingIvrStep = Omit<StepModel, 'id'>;

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Reads the tenant's live routing at once (one round trip per table, all in parallel). */
export async function loadRoutingConfiguration(db: Kysely<DB>, tenant: Tenant): Promise<RoutingConfiguration> {
  const pbxId = tenant.pbxId;
  const [sounds, flows, ivrs, steps, queues, members] = await Promise.all([
    db.selectFrom('sound_files').select(['id', 'name', 'type', 'language']).where('pbx_id', '=', pbxId).where('deleted_at', 'is', null).execute(),
    db.selectFrom('call_flows').select(['id', 'name', 'description', 'entry', 'nodes']).where('pbx_id', '=', pbxId).where('deleted_at', 'is', null).execute(),
    db
      .selectFrom('ivrs')
      .select(['id', 'name', 'comment', 'announcement_id', 'music_on_hold_id', 'announcement_language', 'default_action', 'timeout_seconds', 'max_repeats'])
      .where('pbx_id', '=', pbxId)
      .where('deleted_at', 'is', null)
      .execute(),
    db
      .selectFrom('ivr_steps')
      .select(['ivr_id', 'option', 'name', 'target_type', 'target_id', 'language'])
      .where('pbx_id', '=', pbxId)
      .where('deleted_at', 'is', null)
      .execute(),
    db.selectFrom('queues').selectAll().where('pbx_id', '=', pbxId).where('deleted_at', 'is', null).execute(),
    db.selectFrom('queue_members').selectAll().where('pbx_id', '=', pbxId).execute(),
  ]);

  const stepsOf = new Map<string, RoutingIvrStep[]>();
  for (const step of steps) {
    const list = stepsOf.get(step.ivr_id) ?? [];
    list.push({ option: step.option, name: step.name, target: stepTarget(step), language: step.language });
    stepsOf.set(step.ivr_id, list);
  }
  const queueModels = new Map(queues.map((queue) => [queue.id, queueModel(queue)]));
  addQueueMembers(queueModels, members);

  return {
    soundFiles: sounds.map((s) => ({ id: s.id, name: s.name, type: s.type, language: s.language })).sort(byId),
    callFlows: flows
      .map((f) => ({ id: f.id, name: f.name, description: f.description, entry: f.entry, nodes: JSON.parse(f.nodes) as CallFlowNode[] }))
      .sort(byId),
    ivrs: ivrs
      .map((i) => ({
        id: i.id,
        name: i.name,
        comment: i.comment,
        announcementId: i.announcement_id,
        musicOnHoldId: i.music_on_hold_id,
        language: i.announcement_language,
        defaultAction: i.default_action,
        timeoutSeconds: i.timeout_seconds,
        maxRepeats: i.max_repeats,
        steps: (stepsOf.get(i.id) ?? []).sort((a, b) => (a.option < b.option ? -1 : a.option > b.option ? 1 : 0)),
      }))
      .sort(byId),
    queues: [...queueModels.values()].sort(byId),
  };
}
