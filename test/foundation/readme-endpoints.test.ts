import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../src/app.js';
import { withEndpointTables, type OpenApiPaths } from '../../src/http/endpoint-tables.js';
import { authOfRoutes } from '../../src/http/route-docs.js';
import { useTestApp } from '../helpers.js';

/**
 * The README's endpoint tables are written from the routes (#36 item 7): each lists method and
 * path, who may call it (the route's `config.auth`) and its summary, so behaviour is described once,
 * in the route's docs. `npm run docs:readme` rewrites them; this test fails while they are stale.
 */
const t = useTestApp();

describe('README endpoint tables', () => {
  it('match the routes', () => {
    const readme = readFileSync('README.md', 'utf8');
    const written = withEndpointTables(readme, t.app.swagger() as unknown as OpenApiPaths, authOfRoutes(t.app), API_PREFIX);
    if (process.env.UPDATE_README === '1') return writeFileSync('README.md', written);
    expect(readme.match(/<!-- endpoints: /g)?.length ?? 0).toBeGreaterThan(0);
    expect(written, 'README endpoint tables are stale: run `npm run docs:readme`').toBe(readme);
  });
});
