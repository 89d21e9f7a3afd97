import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemo, type DemoTenant } from '../../../demo-seed.js';
import { issueUserToken } from '../../../platform/auth/tokens.js';
import { Browser, browserSuite, type Page } from '../../../../test/chromium.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers.js';

/** Screenshots kept for a reader of the test run (gitignored; CI leaves them in its clone's test-artifacts/). */
const ARTIFACTS = join(import.meta.dirname, '..', '..', '..', '..', 'test-artifacts');
const PROJECT = process.env.TEST_DB ?? 'sqlite';
const MERMAID = join(createRequire(import.meta.url).resolve('mermaid/package.json'), '..', 'dist', 'mermaid.min.js');

browserSuite('routing diagrams in headless Chromium', () => {
  let t: TestApp;
  let acme: DemoTenant;
  let token: string;
  let browser: Browser;
  let page: Page;
  let scratch: string;

  beforeAll(async () => {
    t = await buildTestApp({ env: { JOB_WORKER: 'false', AMI_EVENTS: 'false' } });
    acme = (await seedDemo(t.ctx)).seed.tenants[0];
    token = await issueUserToken(t.ctx.db, t.ctx.clock, { id: acme.admin.id, pbx_id: acme.pbx_id }, { name: 'browser', ttlSeconds: 600 });
    scratch = mkdtempSync(join(tmpdir(), 'pbx-api-diagram-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await Browser.launch();
    page = await browser.newPage(1400, 1300);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  const picture = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode, response.body).toBe(200);
    return response.body;
  };

  it("shows the demo main number's SVG with every box drawn, and keeps a screenshot", async () => {
    const svg = await picture(`/phone-numbers/${String(acme.samples.routed_number)}/route-diagram?format=svg`);
    const file = join(ARTIFACTS, `route-diagram-main-line-${PROJECT}.svg`);
    writeFileSync(file, svg);
    await page.goto(pathToFileURL(file).href);
    const shown = await page.evaluate<{ root: string; boxes: number; text: string; width: number }>(
      `({ root: document.documentElement.localName, boxes: document.querySelectorAll('g.node').length, text: document.documentElement.textContent, width: document.documentElement.getBoundingClientRect().width })`,
    );
    expect(shown.root).toBe('svg');
    expect(shown.boxes).toBeGreaterThan(15);
    expect(shown.width).toBeGreaterThan(200);
    for (const name of ['+35227123400', 'Main line', 'Call flow: Main number', 'Main menu', 'Language menu', 'Support', 'Anna Schmit'])
      expect(shown.text).toContain(name);
    expect(page.problems).toEqual([]);
    await page.screenshot(join(ARTIFACTS, `route-diagram-main-line-${PROJECT}.png`));
  });

  it('renders the Mermaid with Mermaid itself, hostile names as plain text', async () => {
    const mainLine = await picture(`/phone-numbers/${String(acme.samples.routed_number)}/route-diagram?format=mermaid`);
    const hostile = 'Evil "flow" [x] {y} |z| #1; `code` <script>window.hacked=1</script> & \\N';
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/call-flows',
      headers: { authorization: `Bearer ${token}` },
      payload: { name: hostile, entry: 'bye', nodes: [{ key: 'bye', type: 'hangup', label: '<img src=x onerror="window.hacked=2">' }] },
    });
    expect(created.statusCode).toBe(201);
    const evil = await picture(`/call-flows/${created.json<{ data: { id: string } }>().data.id}/diagram?format=mermaid`);

    const html = join(scratch, 'mermaid.html');
    writeFileSync(html, `<!doctype html><meta charset="utf-8"><script src="${pathToFileURL(MERMAID).href}"></script><body></body>`);
    await page.goto(pathToFileURL(html).href);
    const render = async (text: string, id: string) =>
      page.evaluate<{ text: string; scripts: number; images: number }>(`(async () => {
        mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
        const { svg } = await mermaid.render(${JSON.stringify(id)}, ${JSON.stringify(text)});
        const holder = document.createElement('div');
        holder.innerHTML = svg;
        document.body.appendChild(holder);
        return { text: holder.textContent, scripts: holder.querySelectorAll('script').length, images: holder.querySelectorAll('img').length };
      })()`);

    const main = await render(mainLine, 'main');
    for (const name of ['+35227123400', 'Call flow: Main number', 'Main menu', 'no key: default step Support (no key)', "holidays: LU and the PBX's"]) {
      expect(main.text).toContain(name);
    }
    const drawn = await render(evil, 'evil');
    expect(drawn.text).toContain(`Call flow: ${hostile}`);
    expect(drawn.text).toContain('<img src=x onerror="window.hacked=2"> (bye)');
    expect(drawn.scripts).toBe(0);
    expect(drawn.images).toBe(0);
    expect(await page.evaluate('window.hacked ?? null')).toBeNull();
    await page.screenshot(join(ARTIFACTS, `route-diagram-mermaid-${PROJECT}.png`));
  });

  it("shows the example picture on the docs page, in the number's route operation", async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    await page.goto(`http://127.0.0.1:${port}/api/v1/docs#/Phone%20numbers/getPhoneNumberRouteDiagram`);
    const shown = await page.waitFor<string>(
      `[...document.querySelectorAll('#operations-Phone_numbers-getPhoneNumberRouteDiagram .opblock-description-wrapper code')].map((code) => code.textContent).join('\\n')`,
      20_000,
    );
    for (const line of ['flowchart TD', 'Time condition: hours', 'IVR menu<br>Main menu', '-->|"no key: default step Support"|']) expect(shown).toContain(line);
    await page.screenshot(join(ARTIFACTS, `route-diagram-docs-page-${PROJECT}.png`));
  });
});
