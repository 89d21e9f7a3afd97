import { nodeExits, type CallFlowNode } from '../call-flows/call-flow-nodes.js';
import type { RoutingGraph } from './model.js';

/**
 * The routing graph's vertices: `flow:{id}/{key}` (a node of a flow), `ivr:{id}`, `queue:{id}`.
 * Validation finds loops on them; the simulator walks the same moves.
 */
export type Vertex = string;

/** Where a call entering a live flow, IVR or queue goes first; null when it is not live. */
export function vertexOfTarget(graph: RoutingGraph, type: string, id: string | null): Vertex | null {
  if (!id) return null;
  if (type === 'call_flow') {
    const flow = graph.flows.get(id);
    return flow && flow.byKey.has(flow.entry) ? `flow:${id}/${flow.entry}` : null;
  }
  if (type === 'ivr') return graph.ivrs.has(id) ? `ivr:${id}` : null;
  if (type === 'queue') return graph.queues.has(id) ? `queue:${id}` : null;
  return null;
}

function nodeJump(graph: RoutingGraph, node: CallFlowNode): Vertex | null {
  if (node.type === 'queue') return vertexOfTarget(graph, 'queue', node.queue_id);
  if (node.type === 'ivr') return vertexOfTarget(graph, 'ivr', node.ivr_id);
  if (node.type === 'call_flow') return vertexOfTarget(graph, 'call_flow', node.call_flow_id);
  return null;
}

/** The moves a call makes from `vertex` by itself, without the caller pressing a key. */
export function automaticEdges(graph: RoutingGraph, vertex: Vertex): Vertex[] {
  const [kind, rest] = vertex.split(':') as [string, string];
  if (kind === 'flow') {
    const [flowId, key] = rest.split('/') as [string, string];
    const flow = graph.flows.get(flowId);
    const node = flow?.byKey.get(key);
    if (!flow || !node) return [];
    const out: Vertex[] = [];
    for (const exit of nodeExits(node)) if (exit.key && flow.byKey.has(exit.key)) out.push(`flow:${flowId}/${exit.key}`);
    const jump = nodeJump(graph, node);
    if (jump) out.push(jump);
    return out;
  }
  if (kind === 'ivr') {
    const ivr = graph.ivrs.get(rest);
    const fallback = ivr?.defaultAction === 'default_step' ? ivr.steps.get('default')?.target : undefined;
    const next = fallback ? vertexOfTarget(graph, fallback.type, fallback.id) : null;
    return next ? [next] : [];
  }
  if (kind === 'queue') {
    const overflow = graph.queues.get(rest)?.overflow;
    const next = overflow ? vertexOfTarget(graph, overflow.type, overflow.id) : null;
    return next ? [next] : [];
  }
  return [];
}

export function describeVertex(graph: RoutingGraph, vertex: Vertex): string {
  const [kind, rest] = vertex.split(':') as [string, string];
  if (kind === 'flow') {
    const [flowId, key] = rest.split('/') as [string, string];
    return `call flow "${graph.flows.get(flowId)?.name ?? flowId}" node "${key}"`;
  }
  if (kind === 'ivr') return `IVR "${graph.ivrs.get(rest)?.name ?? rest}" (default step)`;
  return `queue "${graph.queues.get(rest)?.name ?? rest}" (overflow)`;
}

export function pathOfVertex(vertex: Vertex): string {
  const [kind, rest] = vertex.split(':') as [string, string];
  if (kind === 'flow') {
    const [flowId, key] = rest.split('/') as [string, string];
    return `call_flows/${flowId}/nodes/${key}`;
  }
  return kind === 'ivr' ? `ivrs/${rest}/default_action` : `queues/${rest}/overflow`;
}
