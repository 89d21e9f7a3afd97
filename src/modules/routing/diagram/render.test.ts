import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { ValidationFailed } from '../../../platform/errors.js';
import type { AppContext } from '../../../platform/context.js';
import type { Diagram } from './diagram.js';
import { DiagramService, MAX_SVG_BOXES } from './diagram.service.js';
import { dotText, mermaidText, toDot, toMermaid } from './render.js';
import { renderSvg } from './svg.js';

const box = (index: number, lines: string[]) => ({ key: `user:${index}`, kind: 'user' as const, lines, cluster: null, highlighted: false });
const diagramOf = (nodes: Diagram['nodes']): Diagram => ({ title: 'Test', nodes, edges: [], clusters: new Map() });

describe('diagram text', () => {
  it('escapes what ends a Mermaid string or starts an entity, markup or markdown, and nothing else', () => {
    expect(mermaidText('A "quoted" <b>bold</b> & #1 `code` |pipe| [x] {y} (z) é')).toBe(
      'A #quot;quoted#quot; #lt;b#gt;bold#lt;/b#gt; #amp; #35;1 #96;code#96; #124;pipe#124; [x] {y} (z) é',
    );
    // An entity code typed by a user stays text: its # is escaped first.
    expect(mermaidText('#quot;')).toBe('#35;quot;');
  });

  it("escapes DOT's quotes and backslashes, so Graphviz's \\N and \\G stay text", () => {
    expect(dotText('say "hi" \\N \\G \\n')).toBe('say \\"hi\\" \\\\N \\\\G \\\\n');
  });

  it('keeps hostile text as text through Graphviz', async () => {
    const name = 'x" ] ; node [label="owned"] <script>alert(1)</script> \\N';
    const svg = await renderSvg(toDot(diagramOf([box(1, [name])])));
    expect(XMLValidator.validate(svg)).toBe(true);
    const texts = JSON.stringify(new XMLParser({ processEntities: true, htmlEntities: true }).parse(svg));
    expect(texts).toContain(JSON.stringify(name).slice(1, -1));
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('owned"');
  });

  it('draws at most MAX_SVG_BOXES boxes as SVG (422 on the field that chose it), any number as Mermaid', async () => {
    const service = new DiagramService({} as AppContext);
    const big = diagramOf(Array.from({ length: MAX_SVG_BOXES + 1 }, (_, index) => box(index, [`User ${index}`])));
    const refused = await service.render(big, 'svg', 'format').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ValidationFailed);
    expect((refused as ValidationFailed).body()).toMatchObject({ errors: { format: [expect.stringContaining(`at most ${MAX_SVG_BOXES}`)] } });
    expect(await service.render(big, 'mermaid', 'format')).toBe(toMermaid(big));
    const fits = diagramOf(big.nodes.slice(0, 3));
    expect(await service.render(fits, 'svg', 'format')).toContain('<svg');
  });
});
