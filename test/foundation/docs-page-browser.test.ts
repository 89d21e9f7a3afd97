import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const NO_CHROMIUM = `no Chromium at ${CHROMIUM}: the docs page is not rendered`;
/** Screenshots to look at after a run (gitignored), one set per database project (the suite may run on both at once). */
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts');
const PROJECT = process.env.TEST_DB ?? 'sqlite';

const run = promisify(execFile);

/** Chromium headless on `url`, with its own profile and nothing fetched but the page: the rendered DOM, or a screenshot. */
async function chromium(url: string, output: { dom: true } | { screenshot: string }): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), 'pbx-api-chromium-'));
  try {
    const args = [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      '--virtual-time-budget=15000',
      '--window-size=1280,1600',
      ...('dom' in output ? ['--dump-dom'] : [`--screenshot=${output.screenshot}`]),
      url,
    ];
    const { stdout } = await run(CHROMIUM, args, { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The tag names in the order the page shows them. */
const tagsShown = (dom: string) => [...dom.matchAll(/<h3 class="opblock-tag"[^>]*data-tag="([^"]*)"/g)].map((match) => match[1].replace(/&amp;/g, '&'));

/** The text of the page's JSON code blocks (the examples it shows), without their highlighting markup. */
const codeShown = (dom: string) =>
  [...dom.matchAll(/<code class="language-json"[^>]*>([\s\S]*?)<\/code>/g)]
    .map((match) => match[1].replace(/<[^>]+>/g, ''))
    .join('\n')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

describe('the docs page in a browser', () => {
  let docs: string;
  let documentTags: string[];
  const t = useTestApp();
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    docs = `http://127.0.0.1:${port}/api/v1/docs`;
    documentTags = (await t.app.inject('/api/v1/openapi.json')).json<{ tags: Array<{ name: string }> }>().tags.map((tag) => tag.name);
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  it('shows the login tag first and every tag in the document’s order, and keeps a screenshot', async ({ skip }) => {
    skip(!existsSync(CHROMIUM), NO_CHROMIUM);
    const shown = tagsShown(await chromium(docs, { dom: true }));
    expect(shown[0]).toBe('Login and identity');
    expect(shown).toEqual(documentTags);
    const screenshot = join(ARTIFACTS, `docs-page-${PROJECT}.png`);
    rmSync(screenshot, { force: true });
    await chromium(docs, { screenshot });
    expect(statSync(screenshot).size).toBeGreaterThan(10_000);
  }, 120_000);

  it('shows the login’s demo account and its answer’s example when the operation is opened', async ({ skip }) => {
    skip(!existsSync(CHROMIUM), NO_CHROMIUM);
    const login = `${docs}#/Login%20and%20identity/login`;
    const code = codeShown(await chromium(login, { dom: true }));
    expect(code).toContain('"email": "anna.schmit@acme.example"');
    expect(code).toContain('"password": "acme-anna-2026"');
    expect(code).toContain('"message": "Login successful."');
    const list = codeShown(await chromium(`${docs}#/Users/listUsers`, { dom: true }));
    // A list's example is a page of the demo's users, not the generator's `"string"`.
    expect(list).toContain('"email": "marie.hoffmann@acme.example"');
    expect(list).toContain('"per_page": 15');
    await chromium(login, { screenshot: join(ARTIFACTS, `docs-page-login-${PROJECT}.png`) });
  }, 120_000);
});
