import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { addQueueMembers, FLOW_COLUMNS, flowModel, IVR_COLUMNS, ivrModel, queueModel, STEP_COLUMNS, stepModel, type RoutingGraph } from './model.js';

/** What a routing write changed: one call flow, one IVR (itself or one of its steps) or one queue (its members included). */
export interface ChangedResource {
  type: 'call_flow' | 'ivr' | 'queue';
  id: string;
}

type Kind = ChangedResource['type'];
const MAP_OF = { call_flow: 'flows', ivr: 'ivrs', queue: 'queues' } as const satisfies Record<Kind, keyof RoutingGraph>;

/**
 * The graph as a routing write left it: the resource it changed read again (its row, and an IVR's
 * live steps or a queue's members), everything else shared with `graph`, which stays as it was.
 * A resource keeps its place in the maps; a new one comes last (validation's answer, whose order
 * follows the maps, is therefore always built from a graph loaded at once, see cache.ts).
 */
export async function patchRoutingGraph(db: Kysely<DB>, tenant: Tenant, graph: RoutingGraph, changed: ChangedResource): Promise<RoutingGraph> {
  const pbx = tenant.pbxId;
  const { id } = changed;
  if (changed.type === 'call_flow') {
    const row = await db.selectFrom('call_flows').select(FLOW_COLUMNS).where('pbx_id', '=', pbx).where('id', '=', id).executeTakeFirst();
    return replaced(graph, 'call_flow', id, row, () => flowModel(row!));
  }
  if (changed.type === 'ivr') {
    const [row, steps] = await Promise.all([
      db.selectFrom('ivrs').select(IVR_COLUMNS).where('pbx_id', '=', pbx).where('id', '=', id).executeTakeFirst(),
      db.selectFrom('ivr_steps').select(STEP_COLUMNS).where('pbx_id', '=', pbx).where('ivr_id', '=', id).where('deleted_at', 'is', null).execute(),
    ]);
    return replaced(graph, 'ivr', id, row, () => {
      const ivr = ivrModel(row!);
      for (const step of steps) ivr.steps.set(step.option, stepModel(step));
      return ivr;
    });
  }
  const [row, members] = await Promise.all([
    db.selectFrom('queues').selectAll().where('pbx_id', '=', pbx).where('id', '=', id).executeTakeFirst(),
    db.selectFrom('queue_members').selectAll().where('pbx_id', '=', pbx).where('queue_id', '=', id).execute(),
  ]);
  return replaced(graph, 'queue', id, row, () => {
    const queues = new Map([[id, queueModel(row!)]]);
    addQueueMembers(queues, members);
    return queues.get(id)!;
  });
}

function replaced<M>(graph: RoutingGraph, kind: Kind, id: string, row: { name: string; deleted_at: string | null } | undefined, model: () => M): RoutingGraph {
  const key = MAP_OF[kind];
  const live = new Map(graph[key] as Map<string, M>);
  const known = new Map(graph.known[kind]);
  if (!row) known.delete(id);
  else known.set(id, { name: row.name, deleted: row.deleted_at !== null });
  if (row && row.deleted_at === null) live.set(id, model());
  else live.delete(id);
  return { ...graph, [key]: live, known: { ...graph.known, [kind]: known } };
}
