import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { ValidationFailed } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { numberDestinations } from '../../directory/index.js';
import { nodeExits, nodeTargets, type NodeTargetType } from '../call-flows/call-flow-nodes.js';
import { automaticEdges, describeVertex, pathOfVertex } from './edges.js';
import { loadRoutingGraph, type RoutingGraph } from './model.js';
import type { PROBLEM_CODES } from './graph.schemas.js';

export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** Problems a write may leave: the IVR's steps come after the IVR (POST /ivrs takes its default_action first). */
const WARNINGS = new Set<ProblemCode>(['missing_default_step']);

export interface RoutingProblem {
  code: ProblemCode;
  severity: 'error' | 'warning';
  /** Where: `call_flows/{id}/nodes/{key}/{field}`, `ivrs/{id}/steps/{option}/target_id`, `queues/{id}/overflow`, ... */
  path: string;
  message: string;
}

const KIND_NAMES: Record<NodeTargetType, string> = {
  user: 'user',
  extension: 'extension',
  queue: 'queue',
  ivr: 'IVR',
  call_flow: 'call flow',
  sound_file: 'sound file',
};

/** Every problem of the tenant's routing, in a stable order. */
export async function routingProblems(db: Kysely<DB>, tenant: Tenant): Promise<RoutingProblem[]> {
  const [graph, numbers] = await Promise.all([
    loadRoutingGraph(db, tenant),
    numberDestinations(db, tenant, ['user', 'extension', 'call_flow', 'ivr', 'queue']),
  ]);
  return problemsOf(graph, numbers);
}

export function problemsOf(
  graph: RoutingGraph,
  numbers: Array<{ id: string; number: string; destination_type: string; destination_id: string | null }> = [],
): RoutingProblem[] {
  const problems: RoutingProblem[] = [];
  const add = (code: ProblemCode, path: string, message: string) => problems.push({ code, severity: WARNINGS.has(code) ? 'warning' : 'error', path, message });

  /** A reference to a resource that is gone or deleted; true when it is live. */
  const live = (kind: NodeTargetType, id: string | null, path: string, owner: string): boolean => {
    const found = id ? graph.known[kind].get(id) : undefined;
    if (!found) add('dangling', path, `${owner} points at a ${KIND_NAMES[kind]} that does not exist.`);
    else if (found.deleted) add('dangling', path, `${owner} points at the deleted ${KIND_NAMES[kind]} "${found.name}"; restore it or point elsewhere.`);
    return !!found && !found.deleted;
  };
  const sound = (id: string | null, type: 'announcement' | 'music', path: string, owner: string) => {
    if (id === null || !live('sound_file', id, path, owner)) return;
    if (graph.soundTypes.get(id) !== type) add('wrong_sound_type', path, `${owner} needs a sound file of type ${type}.`);
  };
  const canRing = (userId: string) => {
    const user = graph.users.get(userId);
    return !!user && user.active && !user.dnd;
  };
  const queueCanTakeCalls = (queueId: string) => {
    const queue = graph.queues.get(queueId);
    if (!queue) return true;
    const ringable = queue.members.some((m) => (m.type === 'user' ? canRing(m.id) : graph.extensions.has(m.id)));
    return ringable || queue.overflow.type !== 'hangup';
  };
  const routedQueues = new Map<string, string>();

  for (const flow of graph.flows.values()) {
    const owner = `Call flow "${flow.name}"`;
    const base = `call_flows/${flow.id}/nodes`;
    const reached = new Set<string>([flow.entry]);
    const pending = [flow.entry];
    while (pending.length > 0) {
      const node = flow.byKey.get(pending.pop()!);
      if (!node) continue;
      for (const exit of nodeExits(node)) {
        if (!exit.key || reached.has(exit.key)) continue;
        reached.add(exit.key);
        pending.push(exit.key);
      }
    }
    for (const node of flow.nodes) {
      const at = `${base}/${node.key}`;
      const nodeOwner = `${owner}, node "${node.key}",`;
      if (!reached.has(node.key)) add('unreachable', at, `${owner}: node "${node.key}" cannot be reached from the entry "${flow.entry}".`);
      for (const target of nodeTargets(node)) {
        if (!live(target.type, target.id, `${at}/${target.field.replace(/\./g, '/')}`, nodeOwner)) continue;
        if (target.type === 'sound_file' && graph.soundTypes.get(target.id) !== 'announcement')
          add('wrong_sound_type', `${at}/${target.field}`, `${nodeOwner} needs a sound file of type announcement.`);
        if (target.type === 'queue') routedQueues.set(target.id, `${at}/queue_id`);
      }
      if (node.type === 'time_condition' && !node.closed) add('no_closed_branch', `${at}/closed`, `${nodeOwner} a time condition, has no closed branch.`);
      if (node.type === 'ring_user' && !node.no_answer && graph.users.has(node.user_id) && !canRing(node.user_id))
        add(
          'no_one_to_ring',
          `${at}/user_id`,
          `${nodeOwner} rings only "${graph.users.get(node.user_id)!.name}", who is disabled or on do not disturb, and has no no_answer branch.`,
        );
      if (node.type === 'ring_group' && !node.no_answer && node.members.every((m) => !canRing(m.user_id)))
        add('no_one_to_ring', `${at}/members`, `${nodeOwner} rings only users who are disabled, deleted or on do not disturb, and has no no_answer branch.`);
    }
  }

  for (const ivr of graph.ivrs.values()) {
    const owner = `IVR "${ivr.name}"`;
    sound(ivr.announcementId, 'announcement', `ivrs/${ivr.id}/announcement`, owner);
    sound(ivr.musicOnHoldId, 'music', `ivrs/${ivr.id}/musicOnHold`, owner);
    for (const step of ivr.steps.values()) {
      const path = `ivrs/${ivr.id}/steps/${step.option}/target_id`;
      if (!step.target) add('dangling', path, `${owner}, key ${step.option}, has a target type that is neither a call flow nor an IVR.`);
      else live(step.target.type, step.target.id, path, `${owner}, key ${step.option},`);
    }
    if (ivr.defaultAction === 'default_step' && !ivr.steps.has('default'))
      add('missing_default_step', `ivrs/${ivr.id}/default_action`, `${owner} goes to its default step on timeout but has no step for the option "default".`);
  }

  for (const queue of graph.queues.values()) {
    const owner = `Queue "${queue.name}"`;
    sound(queue.announcementId, 'announcement', `queues/${queue.id}/announcement_id`, owner);
    sound(queue.musicOnHoldId, 'music', `queues/${queue.id}/music_on_hold_id`, owner);
    queue.members.forEach((member, index) => live(member.type, member.id, `queues/${queue.id}/members/${index}/id`, `${owner}, member ${index + 1},`));
    const overflow = queue.overflow;
    const kind = overflow.type === 'voicemail' ? 'user' : overflow.type;
    if (kind === 'user' || kind === 'extension' || kind === 'queue' || kind === 'ivr' || kind === 'call_flow') {
      if (live(kind, overflow.id, `queues/${queue.id}/overflow`, `${owner}'s overflow`) && kind === 'queue')
        routedQueues.set(overflow.id!, `queues/${queue.id}/overflow`);
    }
  }

  for (const number of numbers) {
    const kind = number.destination_type as NodeTargetType;
    if (live(kind, number.destination_id, `phone_numbers/${number.id}/destination_id`, `Phone number ${number.number}`) && kind === 'queue')
      routedQueues.set(number.destination_id!, `phone_numbers/${number.id}/destination_id`);
  }

  for (const [queueId, from] of routedQueues)
    if (!queueCanTakeCalls(queueId))
      add(
        'empty_queue',
        `queues/${queueId}/members`,
        `Queue "${graph.queues.get(queueId)!.name}" (routed to from ${from}) has no member who can take calls and its overflow hangs up.`,
      );

  problems.push(...cycles(graph));
  return problems;
}

/**
 * Loops a call can run forever without the caller choosing anything: strongly connected parts of
 * the graph of automatic moves (a node's exits, a flow's jump into another flow, IVR or queue, an
 * IVR's default step on timeout, a queue's overflow). Tarjan's algorithm, iterative.
 */
function cycles(graph: RoutingGraph): RoutingProblem[] {
  const vertices: string[] = [];
  for (const flow of graph.flows.values()) for (const node of flow.nodes) vertices.push(`flow:${flow.id}/${node.key}`);
  for (const id of graph.ivrs.keys()) vertices.push(`ivr:${id}`);
  for (const id of graph.queues.keys()) vertices.push(`queue:${id}`);
  const edges = new Map(vertices.map((v) => [v, automaticEdges(graph, v)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const open = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
  };
  for (const root of vertices) {
    if (index.has(root)) continue;
    const work: Array<{ v: string; next: number }> = [{ v: root, next: 0 }];
    open(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const out = edges.get(frame.v) ?? [];
      if (frame.next < out.length) {
        const w = out[frame.next++];
        if (!index.has(w)) {
          open(w);
          work.push({ v: w, next: 0 });
        } else if (onStack.has(w)) low.set(frame.v, Math.min(low.get(frame.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length > 0) low.set(work[work.length - 1].v, Math.min(low.get(work[work.length - 1].v)!, low.get(frame.v)!));
      if (low.get(frame.v) === index.get(frame.v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== frame.v);
        if (component.length > 1 || (edges.get(frame.v) ?? []).includes(frame.v)) components.push(component);
      }
    }
  }
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0];
    const loop = loopThrough(start, members, edges);
    return {
      code: 'cycle' as const,
      severity: 'error' as const,
      path: pathOfVertex(start),
      message: `Calls loop without a caller choice: ${loop.map((v) => describeVertex(graph, v)).join(' → ')}.`,
    };
  });
}

/** One loop from `start` back to it within its component (breadth first, so the shortest). */
function loopThrough(start: string, members: Set<string>, edges: Map<string, string[]>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of edges.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at = v; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (previous.has(w)) continue;
      previous.set(w, v);
      queue.push(w);
    }
  }
  return [start, start];
}

export function problemsError(problems: RoutingProblem[]): ValidationFailed {
  const errors: Record<string, string[]> = {};
  for (const problem of problems) (errors[problem.path] ??= []).push(problem.message);
  return new ValidationFailed(errors, undefined, { problems });
}
