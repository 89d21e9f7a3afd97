import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The workforce's sub-domains (#36 item 5: organisation, time, absences, scheduling, and shared/)
 * stand on each other without a circle. dependency-cruiser checks files (no-circular) and that a
 * sub-domain reaches another only through its index.ts, but two sub-domains can still use each
 * other through different files (a file of A imports B's index, a file of B imports A's), and then
 * neither can be read, changed or moved alone. This draws the sub-domains' graph from every import
 * of their non-test files, type-only ones included, and fails on a circle, naming its imports.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const WORKFORCE = join(ROOT, 'src', 'modules', 'workforce');

/** The sub-domain a file belongs to; undefined for the workforce's root files and files outside it. */
function subDomainOf(file: string): string | undefined {
  const [first, ...rest] = relative(WORKFORCE, file).split(sep);
  return rest.length > 0 && first !== '..' ? first : undefined;
}

/** Sub-domain -> the sub-domains it imports -> the imports that do (`file -> specifier`). */
type Graph = Map<string, Map<string, string[]>>;

function subDomainGraph(): Graph {
  const graph: Graph = new Map();
  for (const entry of readdirSync(WORKFORCE, { recursive: true, encoding: 'utf8' })) {
    const file = join(WORKFORCE, entry);
    const from = subDomainOf(file);
    if (!from || !file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = subDomainOf(normalize(join(dirname(file), fileName)));
      if (!to || to === from) continue;
      const targets = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, targets.set(to, [...(targets.get(to) ?? []), `${relative(ROOT, file).split(sep).join('/')} -> ${fileName}`]));
    }
  }
  return graph;
}

/** The circles of a graph: its strongly connected components of more than one node (Tarjan), each sorted. */
function circlesOf(graph: Map<string, Iterable<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = member === node ? undefined : stack.pop()) component.push(member);
    if (component.length > 1) circles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

describe('workforce sub-domains (#36 item 5)', () => {
  const graph = subDomainGraph();

  it('finds the imports between them', () => {
    expect(graph.get('absences')?.has('time')).toBe(true);
    expect(graph.get('time')?.has('organisation')).toBe(true);
  });

  it('finds a circle when there is one', () => {
    const circled = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(circlesOf(circled)).toEqual([['a', 'b', 'c']]);
  });

  it('no two sub-domains use each other, directly or around a circle', () => {
    const circles = circlesOf(new Map([...graph].map(([from, targets]) => [from, targets.keys()])));
    const imports = circles.map((members) => members.flatMap((from) => members.flatMap((to) => graph.get(from)?.get(to) ?? [])));
    expect(imports).toEqual([]);
  });
});
