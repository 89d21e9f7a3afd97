import type { Diagram, DiagramEdge } from './diagram.js';

/** The parts of a simulation's step the path is read from (simulator.schemas.ts's SimulationStep). */
export interface PathStep {
  kind: string;
  type: string | null;
  id: string | null;
  name: string | null;
  node_key: string | null;
  outcome: string;
}

interface Stop {
  key: string;
  /** Which way the call left it (an edge's `via`), when the step says. */
  via: string | null;
}

/** The way out of a box a step's outcome names: a time condition's branch, the key pressed, a queue's overflow, ... */
function viaOf(step: PathStep): string | null {
  switch (step.kind) {
    case 'time_condition':
      return step.outcome;
    case 'play':
      return 'next';
    case 'ring':
      return step.outcome === 'answered' ? 'rings' : 'no_answer';
    case 'ivr':
      return step.outcome.startsWith('key_') ? `key:${step.outcome.slice(4)}` : 'default';
    case 'queue':
      return step.outcome === 'answered' ? 'member' : 'overflow';
    default:
      return null;
  }
}

/** The boxes a simulated call went through, in order, as the diagram names them. */
function stopsOf(steps: PathStep[], answeredBy: { type: string; id: string } | null): Stop[] {
  const stops: Stop[] = [];
  let flow: string | null = null;
  for (const step of steps) {
    let key: string | null = null;
    if (step.kind === 'number') key = `number:${step.id}`;
    else if (step.kind === 'contact' && step.outcome === 'caller_routed') key = `contact:${step.id}`;
    else if (step.kind === 'call_flow') {
      flow = step.id;
      key = `flow:${step.id}/${step.node_key}`;
    } else if (step.node_key && (step.type === 'call_flow' || step.type === 'ring_group')) key = `flow:${step.id}/${step.node_key}`;
    else if (step.node_key && flow) key = `flow:${flow}/${step.node_key}`;
    else if (step.kind === 'ring' && step.id) key = `${step.type}:${step.id}`;
    else if (step.kind === 'ivr' || step.kind === 'queue') key = `${step.kind}:${step.id}`;
    else if (step.kind === 'voicemail') key = `voicemail:${step.id}`;
    else if (step.kind === 'forward') key = `external:${step.name ?? ''}`;
    else if (step.kind === 'hangup') key = 'hangup';
    if (!key) continue;
    const via = viaOf(step);
    const last = stops.at(-1);
    // A menu played again is the same box; the way it was finally left counts.
    if (last?.key === key) last.via = via;
    else stops.push({ key, via });
  }
  const answerer = answeredBy && (answeredBy.type === 'user' || answeredBy.type === 'extension') ? `${answeredBy.type}:${answeredBy.id}` : null;
  if (answerer && stops.at(-1)?.key !== answerer) stops.push({ key: answerer, via: null });
  return stops;
}

/**
 * Marks the simulated call's path on the diagram: every box it went through and the arrows between
 * them. The simulator reports no step for a flow's jump nodes (a menu, queue or voicemail node that
 * only hands the call on), so the way between two reported boxes may pass through those; its first
 * arrow is the one the step's outcome names.
 */
export function highlightPath(diagram: Diagram, steps: PathStep[], answeredBy: { type: string; id: string } | null): void {
  const nodes = new Map(diagram.nodes.map((node) => [node.key, node]));
  const out = new Map<string, DiagramEdge[]>();
  for (const edge of diagram.edges) {
    const from = out.get(edge.from);
    if (from) from.push(edge);
    else out.set(edge.from, [edge]);
  }
  const passThrough = (key: string) => nodes.get(key)?.kind === 'step';

  const way = (from: Stop, to: string): DiagramEdge[] | null => {
    const seen = new Set([from.key]);
    let paths: DiagramEdge[][] = (out.get(from.key) ?? []).filter((edge) => from.via === null || edge.via === from.via).map((edge) => [edge]);
    while (paths.length) {
      const next: DiagramEdge[][] = [];
      for (const path of paths) {
        const end = path.at(-1)!.to;
        if (end === to) return path;
        if (seen.has(end) || !passThrough(end)) continue;
        seen.add(end);
        for (const edge of out.get(end) ?? []) next.push([...path, edge]);
      }
      paths = next;
    }
    return null;
  };

  const stops = stopsOf(steps, answeredBy);
  stops.forEach((stop, index) => {
    const node = nodes.get(stop.key);
    if (node) node.highlighted = true;
    const following = stops[index + 1];
    if (!following) return;
    for (const edge of way(stop, following.key) ?? []) {
      edge.highlighted = true;
      const passed = nodes.get(edge.to);
      if (passed) passed.highlighted = true;
    }
  });
}
