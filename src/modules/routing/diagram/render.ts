import type { Diagram, DiagramNode, DiagramNodeKind } from './diagram.js';

/** Each kind's fill and border, the same in Mermaid and in DOT (SVG). */
const PALETTE: Record<DiagramNodeKind, { fill: string; stroke: string }> = {
  number: { fill: '#dbeafe', stroke: '#1d4ed8' },
  contact: { fill: '#dbeafe', stroke: '#1d4ed8' },
  time_condition: { fill: '#fef3c7', stroke: '#b45309' },
  play: { fill: '#f3e8ff', stroke: '#7e22ce' },
  ring: { fill: '#dcfce7', stroke: '#15803d' },
  step: { fill: '#f1f5f9', stroke: '#475569' },
  ivr: { fill: '#e0e7ff', stroke: '#4338ca' },
  queue: { fill: '#cffafe', stroke: '#0e7490' },
  user: { fill: '#ecfccb', stroke: '#4d7c0f' },
  extension: { fill: '#ecfccb', stroke: '#4d7c0f' },
  device: { fill: '#ffffff', stroke: '#4d7c0f' },
  voicemail: { fill: '#fce7f3', stroke: '#be185d' },
  external: { fill: '#f1f5f9', stroke: '#334155' },
  hangup: { fill: '#e5e7eb', stroke: '#374151' },
  missing: { fill: '#fee2e2', stroke: '#b91c1c' },
};

/** The simulated call's path. */
const PATH = '#d9480f';

/** Mermaid's node shapes by kind: opening and closing brackets around the quoted label. */
const MERMAID_SHAPES: Record<DiagramNodeKind, [string, string]> = {
  number: ['([', '])'],
  contact: ['([', '])'],
  time_condition: ['{{', '}}'],
  play: ['[/', '/]'],
  ring: ['[', ']'],
  step: ['[', ']'],
  ivr: ['[[', ']]'],
  queue: ['[(', ')]'],
  user: ['(', ')'],
  extension: ['(', ')'],
  device: ['(', ')'],
  voicemail: ['>', ']'],
  external: ['[/', '\\]'],
  hangup: ['((', '))'],
  missing: ['[', ']'],
};

const MERMAID_ENTITIES: Record<string, string> = { '#': '#35;', '"': '#quot;', '&': '#amp;', '<': '#lt;', '>': '#gt;', '`': '#96;', '|': '#124;' };

/**
 * Text inside a Mermaid label's double quotes: the characters that end the string, start an
 * entity, open HTML or markdown are written as Mermaid's entity codes (`#quot;`, `#lt;`, ...),
 * which Mermaid shows as the characters themselves, never as markup.
 */
export function mermaidText(text: string): string {
  return text.replace(/[#"&<>`|]/g, (char) => MERMAID_ENTITIES[char]);
}

/** Text inside a DOT double-quoted string: backslashes (Graphviz's `\n`, `\N`, `\G`, ... escapes) and quotes escaped. */
export function dotText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** Short ids for the picture, in the order the boxes were met (no database id is printed), and each frame's boxes. */
function idsOf(diagram: Diagram): { node: Map<string, string>; cluster: Map<string, string>; inCluster: Map<string | null, DiagramNode[]> } {
  const inCluster = new Map<string | null, DiagramNode[]>();
  for (const node of diagram.nodes) {
    const frame = inCluster.get(node.cluster);
    if (frame) frame.push(node);
    else inCluster.set(node.cluster, [node]);
  }
  return {
    node: new Map(diagram.nodes.map((node, index) => [node.key, `n${index + 1}`])),
    cluster: new Map([...diagram.clusters.keys()].map((key, index) => [key, `c${index + 1}`])),
    inCluster,
  };
}

/** The diagram as a Mermaid flowchart (what a forge renders in Markdown). */
export function toMermaid(diagram: Diagram): string {
  const ids = idsOf(diagram);
  const lines = ['flowchart TD'];
  const declare = (node: DiagramNode, indent: string) => {
    const [open, close] = MERMAID_SHAPES[node.kind];
    lines.push(`${indent}${ids.node.get(node.key)}${open}"${node.lines.map(mermaidText).join('<br>')}"${close}`);
  };
  for (const [cluster, label] of diagram.clusters) {
    lines.push(`  subgraph ${ids.cluster.get(cluster)}["${mermaidText(label)}"]`);
    for (const node of ids.inCluster.get(cluster) ?? []) declare(node, '    ');
    lines.push('  end');
  }
  for (const node of ids.inCluster.get(null) ?? []) declare(node, '  ');
  for (const edge of diagram.edges) {
    const arrow = edge.label === null ? '-->' : `-->|"${mermaidText(edge.label)}"|`;
    lines.push(`  ${ids.node.get(edge.from)} ${arrow} ${ids.node.get(edge.to)}`);
  }
  for (const [kind, colours] of Object.entries(PALETTE)) {
    const members = diagram.nodes.filter((node) => node.kind === kind).map((node) => ids.node.get(node.key));
    if (!members.length) continue;
    lines.push(`  classDef ${kind} fill:${colours.fill},stroke:${colours.stroke},color:#111827`);
    lines.push(`  class ${members.join(',')} ${kind}`);
  }
  const onPath = diagram.nodes.filter((node) => node.highlighted).map((node) => ids.node.get(node.key));
  if (onPath.length) {
    lines.push(`  classDef path stroke:${PATH},stroke-width:3px`);
    lines.push(`  class ${onPath.join(',')} path`);
  }
  const links = diagram.edges.flatMap((edge, index) => (edge.highlighted ? [index] : []));
  if (links.length) lines.push(`  linkStyle ${links.join(',')} stroke:${PATH},stroke-width:3px`);
  return `${lines.join('\n')}\n`;
}

/** Graphviz's shape and style by kind. */
const DOT_SHAPES: Record<DiagramNodeKind, string> = {
  number: 'shape=box, style="rounded,filled"',
  contact: 'shape=box, style="rounded,filled"',
  time_condition: 'shape=hexagon, style=filled',
  play: 'shape=parallelogram, style=filled',
  ring: 'shape=box, style="rounded,filled"',
  step: 'shape=box, style="rounded,filled"',
  ivr: 'shape=component, style=filled',
  queue: 'shape=cylinder, style=filled',
  user: 'shape=box, style="rounded,filled"',
  extension: 'shape=box, style="rounded,filled"',
  device: 'shape=note, style=filled',
  voicemail: 'shape=tab, style=filled',
  external: 'shape=cds, style=filled',
  hangup: 'shape=octagon, style=filled',
  missing: 'shape=box, style="dashed,filled"',
};

/** The diagram in Graphviz's DOT language, which the server renders to SVG. */
export function toDot(diagram: Diagram): string {
  const ids = idsOf(diagram);
  const lines = [
    'digraph routing {',
    `  graph [rankdir=TB, fontname="Helvetica", fontsize=16, labelloc=t, label="${dotText(diagram.title)}", nodesep=0.4, ranksep=0.5];`,
    '  node [fontname="Helvetica", fontsize=11, margin="0.15,0.08"];',
    '  edge [fontname="Helvetica", fontsize=10, color="#475569", fontcolor="#334155"];',
  ];
  const declare = (node: DiagramNode, indent: string) => {
    const colours = PALETTE[node.kind];
    const path = node.highlighted ? `, color="${PATH}", penwidth=3` : `, color="${colours.stroke}"`;
    lines.push(
      `${indent}${ids.node.get(node.key)} [label="${node.lines.map(dotText).join('\\n')}", ${DOT_SHAPES[node.kind]}, fillcolor="${colours.fill}"${path}];`,
    );
  };
  for (const [cluster, label] of diagram.clusters) {
    lines.push(`  subgraph cluster_${ids.cluster.get(cluster)} {`);
    lines.push(`    label="${dotText(label)}"; fontsize=12; style="rounded,dashed"; color="#94a3b8";`);
    for (const node of ids.inCluster.get(cluster) ?? []) declare(node, '    ');
    lines.push('  }');
  }
  for (const node of ids.inCluster.get(null) ?? []) declare(node, '  ');
  for (const edge of diagram.edges) {
    const attributes = [
      ...(edge.label === null ? [] : [`label="${dotText(edge.label)}"`]),
      ...(edge.highlighted ? [`color="${PATH}"`, `fontcolor="${PATH}"`, 'penwidth=3'] : []),
    ];
    lines.push(`  ${ids.node.get(edge.from)} -> ${ids.node.get(edge.to)}${attributes.length ? ` [${attributes.join(', ')}]` : ''};`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
