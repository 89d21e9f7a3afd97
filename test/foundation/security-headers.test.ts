import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp, useTestApp } from '../helpers.js';
import { createUser, type TestUser } from '../factories.js';

/** `default-src 'none';frame-ancestors 'none'` as a map of directive to its sources. */
function directives(header: unknown): Record<string, string[]> {
  const entries = String(header)
    .split(';')
    .map((directive) => directive.trim().split(/\s+/))
    .filter(([name]) => name);
  return Object.fromEntries(entries.map(([name, ...sources]) => [name, sources]));
}

/** Follows the docs page's redirects (`/docs` to `/docs/`), as a browser would. */
async function docsPage(t: TestApp) {
  let response = await t.app.inject('/api/v1/docs');
  for (let hops = 0; response.statusCode === 302 && hops < 3; hops++) {
    const location = String(response.headers.location);
    response = await t.app.inject(location.startsWith('/') ? location : `/api/v1/docs/${location.replace(/^\.\//, '')}`);
  }
  return response;
}

describe('security headers', () => {
  let user: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    user = await createUser(t.ctx);
  });

  it('every JSON answer, refusals and unknown routes included: nosniff, no referrer, never framed, a CSP that allows nothing', async () => {
    const answers = [
      await t.app.inject({ url: '/api/v1/me', headers: bearer(user.token) }),
      await t.app.inject('/api/v1/me'),
      await t.app.inject('/api/v1/no-such-route'),
      await t.app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: 'not-an-address' } }),
      await t.app.inject({ url: '/api/v1/me', headers: { ...bearer(user.token), accept: 'text/html' } }),
      await t.app.inject('/api/v1/openapi.json'),
      await t.app.inject('/health'),
    ];
    expect(answers.map((response) => response.statusCode)).toEqual([200, 401, 404, 422, 406, 200, 200]);
    for (const response of answers) {
      const where = `${response.statusCode} ${response.body.slice(0, 40)}`;
      expect(response.headers['x-content-type-options'], where).toBe('nosniff');
      expect(response.headers['referrer-policy'], where).toBe('no-referrer');
      expect(response.headers['x-frame-options'], where).toBe('DENY');
      expect(directives(response.headers['content-security-policy']), where).toEqual({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] });
      expect(response.headers['cross-origin-resource-policy'], where).toBe('same-origin');
      // Served over plain HTTP here (BASE_URL http://): HSTS would mean nothing.
      expect(response.headers['strict-transport-security'], where).toBeUndefined();
    }
  });

  it('the docs page: a strict CSP that still lets Swagger UI run (its own scripts and styles, no inline script, never framed)', async () => {
    const page = await docsPage(t);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const csp = directives(page.headers['content-security-policy']);
    expect(csp['default-src']).toEqual(["'none'"]);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['style-src'][0]).toBe("'self'");
    expect(csp['style-src'].slice(1).every((source) => source.startsWith("'sha256-"))).toBe(true);
    expect(csp['connect-src']).toEqual(["'self'", 'http://pbx.test']);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'none'"]);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    // Everything the page loads is served from its own origin, as the policy demands.
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(assets.length).toBeGreaterThan(3);
    for (const asset of assets) {
      expect(asset, asset).not.toMatch(/^(https?:)?\/\//);
      const response = await t.app.inject(asset.startsWith('/') ? asset : `/api/v1/docs/${asset.replace(/^\.\//, '')}`);
      expect(response.statusCode, asset).toBe(200);
      expect(response.headers['content-security-policy'], asset).toBe(page.headers['content-security-policy']);
    }
    expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<\s]/);
    expect(page.body).not.toMatch(/<style|style="/);
  });
});

describe('HSTS behind TLS', () => {
  it('is sent for a year, this host only, when the public address (BASE_URL) is https', async () => {
    const t = await buildTestApp({ env: { BASE_URL: 'https://pbx.example.com/api/v1' } });
    try {
      for (const url of ['/api/v1/me', '/health', '/api/v1/docs/']) {
        expect((await t.app.inject(url)).headers['strict-transport-security'], url).toBe('max-age=31536000');
      }
      expect(directives((await t.app.inject('/api/v1/docs/')).headers['content-security-policy'])['upgrade-insecure-requests']).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
