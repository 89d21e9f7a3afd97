import type { Viz } from '@viz-js/viz';

let loading: Promise<Viz> | null = null;

/**
 * Graphviz compiled to WebAssembly (@viz-js/viz), loaded on the first picture asked for and kept:
 * its import stays dynamic so a start, and the bundle's main chunk, do not pay for its 1 MB.
 */
function graphviz(): Promise<Viz> {
  loading ??= import('@viz-js/viz').then((viz) => viz.instance());
  loading.catch(() => (loading = null));
  return loading;
}

/** SVG of a DOT graph. A failed render drops the instance, so the next request starts on a fresh one. */
export async function renderSvg(dot: string): Promise<string> {
  const viz = await graphviz();
  try {
    return viz.renderString(dot, { format: 'svg', engine: 'dot' });
  } catch (error) {
    loading = null;
    throw error;
  }
}
