import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { numberDestinations, toE164 } from '../../directory/index.js';
import { RouteSimulation, type SimulationResult } from '../simulator/simulate.js';
import { localInstant } from '../simulator/time-condition.js';
import { loadRoutingGraph, type FlowModel, type IvrModel, type RoutingGraph } from './model.js';

interface NumberRoute {
  id: string;
  number: string;
  destination_type: string;
  destination_id: string | null;
}

/**
 * The tenant's routing frozen as JSON: the graph the simulator walks and where each phone number
 * leads. A configuration push keeps one with its version, so a simulated PBX routes calls by the
 * configuration it was given, not by what was changed since.
 */
export async function routingSnapshot(db: Kysely<DB>, tenant: Tenant): Promise<string> {
  const [graph, numbers]: [RoutingGraph, NumberRoute[]] = await Promise.all([loadRoutingGraph(db, tenant), numberDestinations(db, tenant)]);
  const entries = <V>(map: Map<string, V>) => [...map.entries()];
  return JSON.stringify({
    flows: [...graph.flows.values()].map(({ byKey: _byKey, ...flow }) => flow),
    ivrs: [...graph.ivrs.values()].map((ivr) => ({ ...ivr, steps: entries(ivr.steps) })),
    queues: [...graph.queues.values()],
    known: Object.fromEntries(Object.entries(graph.known).map(([kind, map]) => [kind, entries(map)])),
    soundTypes: entries(graph.soundTypes),
    users: entries(graph.users),
    extensions: entries(graph.extensions),
    country: graph.country,
    timezone: graph.timezone,
    halfDaySplit: graph.halfDaySplit,
    numbers,
  });
}

function graphOf(snapshot: string): { graph: RoutingGraph; numbers: NumberRoute[] } {
  const data = JSON.parse(snapshot) as {
    flows: Array<Omit<FlowModel, 'byKey'>>;
    ivrs: Array<Omit<IvrModel, 'steps'> & { steps: Array<[string, IvrModel['steps'] extends Map<string, infer S> ? S : never]> }>;
    queues: RoutingGraph['queues'] extends Map<string, infer Q> ? Q[] : never;
    known: Record<keyof RoutingGraph['known'], Array<[string, { name: string; deleted: boolean }]>>;
    soundTypes: Array<[string, 'announcement' | 'music']>;
    users: Array<[string, { name: string; active: boolean; dnd: boolean }]>;
    extensions: Array<[string, { name: string; number: string; userId: string | null }]>;
    country: string;
    timezone: string;
    halfDaySplit: string;
    numbers: NumberRoute[];
  };
  const known = Object.fromEntries(Object.entries(data.known).map(([kind, list]) => [kind, new Map(list)])) as RoutingGraph['known'];
  return {
    graph: {
      flows: new Map(data.flows.map((flow) => [flow.id, { ...flow, byKey: new Map(flow.nodes.map((node) => [node.key, node])) }])),
      ivrs: new Map(data.ivrs.map((ivr) => [ivr.id, { ...ivr, steps: new Map(ivr.steps) }])),
      queues: new Map(data.queues.map((queue) => [queue.id, queue])),
      known,
      soundTypes: new Map(data.soundTypes),
      users: new Map(data.users),
      extensions: new Map(data.extensions),
      country: data.country,
      timezone: data.timezone,
      halfDaySplit: data.halfDaySplit,
    },
    numbers: data.numbers,
  };
}

export interface RoutedCall {
  result: SimulationResult;
  answeredBy: { type: string; id: string; name: string } | null;
  /** The first call flow, IVR or queue the call went through (the record's `via_*`). */
  via: { type: 'CALL_FLOW' | 'IVR' | 'QUEUE'; id: string; name: string } | null;
  steps: Array<{ kind: string; name: string | null; outcome: string; reason: string }>;
}

const VIA = { call_flow: 'CALL_FLOW', ivr: 'IVR', queue: 'QUEUE' } as const;

/**
 * How a call to `dialled` at `at` goes by the frozen routing: null when the number is not one of
 * the PBX's numbers in it. Nobody presses a key (menus time out); `answer` as the simulator takes it.
 */
export async function routeBySnapshot(
  db: Kysely<DB>,
  tenant: Tenant,
  snapshot: string,
  call: { dialled: string; at: Date; answer: 'first_available' | 'nobody' },
): Promise<RoutedCall | null> {
  const { graph, numbers } = graphOf(snapshot);
  const e164 = toE164(call.dialled, graph.country);
  const number = e164 ? numbers.find((n) => n.number === e164) : undefined;
  if (!number || number.destination_type === 'none' || !number.destination_id) return null;
  const simulation = new RouteSimulation(db, tenant, graph, { number: number.number, answer: call.answer }, localInstant(call.at, graph.timezone));
  const result = await simulation.run({ at: 'target', type: number.destination_type, id: number.destination_id, via: `phone number ${number.number}` });
  const first = simulation.steps.find((step) => step.type && step.type in VIA && step.id);
  return {
    result,
    answeredBy: simulation.answeredBy,
    via: first ? { type: VIA[first.type as keyof typeof VIA], id: first.id!, name: first.name ?? '' } : null,
    steps: simulation.steps.map((step) => ({ kind: step.kind, name: step.name, outcome: step.outcome, reason: step.reason })),
  };
}
