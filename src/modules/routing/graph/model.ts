import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { extensionsOfPbx, usersRefusingRoutedCalls } from '../../directory/index.js';
import type { CallFlowNode } from '../call-flows/call-flow-nodes.js';
import type { CallFlowTable, IvrDefaultAction, IvrStepTable, IvrTable, QueueMemberTable, QueueStrategy, QueueTable, SoundFileType } from '../routing.tables.js';
import { STEP_TARGET_TYPES } from '../usages.js';

export interface FlowModel {
  id: string;
  name: string;
  entry: string;
  nodes: CallFlowNode[];
  byKey: Map<string, CallFlowNode>;
}
export interface StepModel {
  id: string;
  option: string;
  name: string | null;
  target: { type: 'call_flow' | 'ivr'; id: string } | null;
  language: string | null;
}
export interface IvrModel {
  id: string;
  name: string;
  defaultAction: IvrDefaultAction;
  timeoutSeconds: number;
  maxRepeats: number;
  announcementId: string;
  musicOnHoldId: string | null;
  language: string | null;
  steps: Map<string, StepModel>;
}
export interface QueueModel {
  id: string;
  name: string;
  strategy: QueueStrategy;
  maxWaitSeconds: number;
  maxCallers: number | null;
  memberTimeoutSeconds: number;
  wrapUpSeconds: number;
  announcementId: string | null;
  musicOnHoldId: string | null;
  overflow: { type: string; id: string | null; number: string | null };
  members: Array<{ type: 'user' | 'extension'; id: string; penalty: number }>;
}
/** Where a resource stands: live, soft-deleted, or (absent from the map) nowhere in the PBX. */
export interface Known {
  name: string;
  deleted: boolean;
}

/** The tenant's routing, loaded at once: what validation and the simulator walk. */
export interface RoutingGraph {
  flows: Map<string, FlowModel>;
  ivrs: Map<string, IvrModel>;
  queues: Map<string, QueueModel>;
  /** Every flow, IVR, queue, sound file, user and extension of the PBX, deleted ones included. */
  known: Record<'call_flow' | 'ivr' | 'queue' | 'sound_file' | 'user' | 'extension', Map<string, Known>>;
  soundTypes: Map<string, SoundFileType>;
  users: Map<string, { name: string; active: boolean; dnd: boolean }>;
  extensions: Map<string, { name: string; number: string; userId: string | null }>;
  country: string;
  timezone: string;
  halfDaySplit: string;
}

const STEP_KIND = new Map<string, 'call_flow' | 'ivr'>([
  [STEP_TARGET_TYPES.call_flow, 'call_flow'],
  [STEP_TARGET_TYPES.ivr, 'ivr'],
]);

/** Where an IVR step leads: a call flow or an IVR, or nowhere (a step of another kind). */
export function stepTarget(step: Pick<Selectable<IvrStepTable>, 'target_type' | 'target_id'>): StepModel['target'] {
  const kind = STEP_KIND.get(step.target_type);
  return kind ? { type: kind, id: step.target_id } : null;
}

/** A live queue row as the graph holds it, its members not yet added. */
export function queueModel(queue: Selectable<QueueTable>): QueueModel {
  return {
    id: queue.id,
    name: queue.name,
    strategy: queue.strategy,
    maxWaitSeconds: queue.max_wait_seconds,
    maxCallers: queue.max_callers,
    memberTimeoutSeconds: queue.member_timeout_seconds,
    wrapUpSeconds: queue.wrap_up_seconds,
    announcementId: queue.announcement_id,
    musicOnHoldId: queue.music_on_hold_id,
    overflow: { type: queue.overflow_type, id: queue.overflow_target_id, number: queue.overflow_number },
    members: [],
  };
}

/** Adds the members to their queues, in the queue's order (position, then id). */
export function addQueueMembers(queues: Map<string, QueueModel>, members: Array<Selectable<QueueMemberTable>>): void {
  const ordered = [...members].sort((a, b) => a.position - b.position || (a.member_id < b.member_id ? -1 : a.member_id > b.member_id ? 1 : 0));
  for (const member of ordered) queues.get(member.queue_id)?.members.push({ type: member.member_type, id: member.member_id, penalty: member.penalty });
}

/** The graph's columns of a call flow, an IVR and a step (graph/patch.ts reloads one of them). */
export const FLOW_COLUMNS = ['id', 'name', 'entry', 'nodes', 'deleted_at'] as const;
export const IVR_COLUMNS = [
  'id',
  'name',
  'default_action',
  'timeout_seconds',
  'max_repeats',
  'announcement_id',
  'music_on_hold_id',
  'announcement_language',
  'deleted_at',
] as const;
export const STEP_COLUMNS = ['id', 'ivr_id', 'option', 'name', 'target_type', 'target_id', 'language'] as const;

export function flowModel(flow: Pick<Selectable<CallFlowTable>, 'id' | 'name' | 'entry' | 'nodes'>): FlowModel {
  const nodes = JSON.parse(flow.nodes) as CallFlowNode[];
  return { id: flow.id, name: flow.name, entry: flow.entry, nodes, byKey: new Map(nodes.map((n) => [n.key, n])) };
}

/** A live IVR as the graph holds it, its steps not yet added. */
export function ivrModel(ivr: Pick<Selectable<IvrTable>, (typeof IVR_COLUMNS)[number]>): IvrModel {
  return {
    id: ivr.id,
    name: ivr.name,
    defaultAction: ivr.default_action,
    timeoutSeconds: ivr.timeout_seconds,
    maxRepeats: ivr.max_repeats,
    announcementId: ivr.announcement_id,
    musicOnHoldId: ivr.music_on_hold_id,
    language: ivr.announcement_language,
    steps: new Map(),
  };
}

export function stepModel(step: Pick<Selectable<IvrStepTable>, (typeof STEP_COLUMNS)[number]>): StepModel {
  return { id: step.id, option: step.option, name: step.name, target: stepTarget(step), language: step.language };
}

const known = (rows: Array<{ id: string; name: string; deleted_at: string | null }>) =>
  new Map(rows.map((row) => [row.id, { name: row.name, deleted: row.deleted_at !== null }]));

export async function loadRoutingGraph(db: Kysely<DB>, tenant: Tenant): Promise<RoutingGraph> {
  const pbx = tenant.pbxId;
  const [pbxRow, flows, ivrs, steps, queues, members, sounds, users, extensions, dndUsers] = await Promise.all([
    db.selectFrom('pbxes').select(['country_code', 'timezone', 'half_day_split']).where('id', '=', pbx).executeTakeFirstOrThrow(),
    db.selectFrom('call_flows').select(FLOW_COLUMNS).where('pbx_id', '=', pbx).execute(),
    db.selectFrom('ivrs').select(IVR_COLUMNS).where('pbx_id', '=', pbx).execute(),
    db.selectFrom('ivr_steps').select(STEP_COLUMNS).where('pbx_id', '=', pbx).where('deleted_at', 'is', null).execute(),
    db.selectFrom('queues').selectAll().where('pbx_id', '=', pbx).execute(),
    db.selectFrom('queue_members').selectAll().where('pbx_id', '=', pbx).execute(),
    db.selectFrom('sound_files').select(['id', 'name', 'type', 'deleted_at']).where('pbx_id', '=', pbx).execute(),
    db.selectFrom('users').select(['id', 'first_name', 'last_name', 'status', 'deleted_at']).where('pbx_id', '=', pbx).execute(),
    extensionsOfPbx(db, tenant),
    usersRefusingRoutedCalls(db, tenant),
  ]);
  const graph: RoutingGraph = {
    flows: new Map(),
    ivrs: new Map(),
    queues: new Map(),
    known: {
      call_flow: known(flows),
      ivr: known(ivrs),
      queue: known(queues),
      sound_file: known(sounds),
      user: known(users.map((u) => ({ id: u.id, name: `${u.first_name} ${u.last_name}`.trim(), deleted_at: u.deleted_at }))),
      extension: known(extensions.map((e) => ({ id: e.id, name: `${e.number} ${e.name}`.trim(), deleted_at: e.deleted_at }))),
    },
    soundTypes: new Map(sounds.map((s) => [s.id, s.type])),
    users: new Map(
      users
        .filter((u) => !u.deleted_at)
        .map((u) => [u.id, { name: `${u.first_name} ${u.last_name}`.trim(), active: u.status === 'active', dnd: dndUsers.has(u.id) }]),
    ),
    extensions: new Map(extensions.filter((e) => !e.deleted_at).map((e) => [e.id, { name: e.name, number: e.number, userId: e.user_id }])),
    country: pbxRow.country_code,
    timezone: pbxRow.timezone,
    halfDaySplit: pbxRow.half_day_split,
  };
  for (const flow of flows) if (!flow.deleted_at) graph.flows.set(flow.id, flowModel(flow));
  for (const ivr of ivrs) if (!ivr.deleted_at) graph.ivrs.set(ivr.id, ivrModel(ivr));
  for (const step of steps) graph.ivrs.get(step.ivr_id)?.steps.set(step.option, stepModel(step));
  for (const queue of queues) if (!queue.deleted_at) graph.queues.set(queue.id, queueModel(queue));
  addQueueMembers(graph.queues, members);
  return graph;
}
