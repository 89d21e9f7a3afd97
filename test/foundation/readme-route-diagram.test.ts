import { readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoTenant } from '../../src/demo-seed.js';
import { issueUserToken } from '../../src/platform/auth/tokens.js';
import { useTestApp } from '../helpers.js';

/**
 * The README's picture of the demo's main number (#38) is what GET
 * /phone-numbers/{phoneNumber}/route-diagram?format=mermaid answers for it: `npm run docs:readme`
 * rewrites the block between its markers, and this test fails while it is stale.
 */
const START = '<!-- route-diagram: the demo main line, written by npm run docs:readme -->';
const END = '<!-- /route-diagram -->';

const t = useTestApp({ env: { JOB_WORKER: 'false', AMI_EVENTS: 'false' } });

describe("README's routing picture", () => {
  let acme: DemoTenant;
  // The whole demo, as the README's readers seed it: slow on a busy PostgreSQL.
  beforeAll(async () => {
    acme = (await seedDemo(t.ctx)).seed.tenants[0];
  }, 120_000);

  it("is the demo main number's Mermaid as the API draws it", async () => {
    const token = await issueUserToken(t.ctx.db, t.ctx.clock, { id: acme.admin.id, pbx_id: acme.pbx_id }, { name: 'readme', ttlSeconds: 600 });
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/phone-numbers/${String(acme.samples.routed_number)}/route-diagram?format=mermaid`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);

    const readme = readFileSync('README.md', 'utf8');
    const start = readme.indexOf(START);
    const end = readme.indexOf(END);
    expect(start, `README.md lacks ${START}`).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    const written = `${readme.slice(0, start + START.length)}\n\`\`\`mermaid\n${response.body}\`\`\`\n${readme.slice(end)}`;
    if (process.env.UPDATE_README === '1') return writeFileSync('README.md', written);
    expect(written, "README's routing picture is stale: run `npm run docs:readme`").toBe(readme);
  });
});
