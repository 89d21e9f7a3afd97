import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { bearer, buildTestApp, useTestApp } from '../helpers.js';
import { createUser, type TestUser } from '../factories.js';

const WEB_APP = 'https://app.pbx.example';
const LOCAL_DEV = 'http://localhost:5173';

/** What a browser sends before a cross-origin request that is not "simple". */
function preflight(url: string, origin: string, method = 'POST', headers = 'authorization,content-type') {
  return {
    method: 'OPTIONS' as const,
    url,
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers, accept: '*/*' },
  };
}

const list = (header: unknown) =>
  String(header)
    .split(',')
    .map((item) => item.trim().toLowerCase());

describe('CORS_ORIGINS and CORS_CREDENTIALS', () => {
  it('are exact origins, kept as browsers send them; anything else stops the start', () => {
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({ corsOrigins: [], corsCredentials: false });
    expect(
      loadConfig({ NODE_ENV: 'test', CORS_ORIGINS: ` ${WEB_APP} , HTTP://LocalHost:5173/,https://x.example:443`, CORS_CREDENTIALS: 'true' }),
    ).toMatchObject({
      corsOrigins: [WEB_APP, LOCAL_DEV, 'https://x.example'],
      corsCredentials: true,
    });
    for (const bad of [
      '*',
      'app.pbx.example',
      'https://app.pbx.example/path',
      'ftp://files.example',
      'https://user:pw@app.pbx.example',
      'https://app.pbx.example?x=1',
    ]) {
      expect(() => loadConfig({ NODE_ENV: 'test', CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS: .* is not an origin/);
    }
    expect(() => loadConfig({ NODE_ENV: 'test', CORS_CREDENTIALS: 'yes' })).toThrow(/CORS_CREDENTIALS must be true or false/);
  });
});

describe('CORS off (no CORS_ORIGINS)', () => {
  const t = useTestApp();

  it('adds no CORS header, and a preflight is an unknown route (404 {message: [..]}), never a server error', async () => {
    const user = await createUser(t.ctx);
    const answer = await t.app.inject({ url: '/api/v1/me', headers: { ...bearer(user.token), origin: WEB_APP } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    const refused = await t.app.inject(preflight('/api/v1/contacts', WEB_APP));
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toEqual([expect.any(String)]);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS for the configured origins', () => {
  let user: TestUser;
  const t = useTestApp({ env: { CORS_ORIGINS: `${WEB_APP},${LOCAL_DEV}` } });
  beforeAll(async () => {
    user = await createUser(t.ctx);
  });

  it('answers a preflight 204 with the methods and headers the API takes, without a token, before any other check', async () => {
    for (const url of ['/api/v1/contacts', '/api/v1/contacts/6f1c2b9e-0000-4000-8000-000000000000', '/api/v1/me', '/api/v1/login']) {
      const response = await t.app.inject(preflight(url, WEB_APP, 'PATCH', 'authorization,content-type,x-request-id,idempotency-key'));
      expect(response.statusCode, url).toBe(204);
      expect(response.body).toBe('');
      expect(response.headers['access-control-allow-origin']).toBe(WEB_APP);
      expect(list(response.headers['access-control-allow-methods'])).toEqual(['get', 'head', 'post', 'put', 'patch', 'delete']);
      expect(list(response.headers['access-control-allow-headers'])).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'accept', 'x-request-id', 'idempotency-key', 'range']),
      );
      expect(response.headers['access-control-max-age']).toBe('600');
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      expect(list(response.headers.vary)).toContain('origin');
    }
    // The other configured origin too, with an Accept the API would refuse (406) on a real request.
    const local = await t.app.inject({
      ...preflight('/api/v1/me', LOCAL_DEV, 'GET', 'authorization'),
      headers: { ...preflight('/api/v1/me', LOCAL_DEV).headers, accept: 'text/html' },
    });
    expect(local.statusCode).toBe(204);
    expect(local.headers['access-control-allow-origin']).toBe(LOCAL_DEV);
  });

  it('lets the page read answers, refusals included, and the headers it needs', async () => {
    const answers = [
      [WEB_APP, await t.app.inject({ url: '/api/v1/me', headers: { ...bearer(user.token), origin: WEB_APP } })],
      [WEB_APP, await t.app.inject({ url: '/api/v1/me', headers: { origin: WEB_APP } })],
      [LOCAL_DEV, await t.app.inject({ method: 'POST', url: '/api/v1/login', headers: { origin: LOCAL_DEV }, payload: { email: 'nobody' } })],
    ] as const;
    expect(answers.map(([, response]) => response.statusCode)).toEqual([200, 401, 422]);
    for (const [origin, response] of answers) {
      expect(response.headers['access-control-allow-origin']).toBe(origin);
      expect(list(response.headers['access-control-expose-headers'])).toEqual(
        expect.arrayContaining([
          'x-ratelimit-limit',
          'x-ratelimit-remaining',
          'ratelimit',
          'ratelimit-policy',
          'retry-after',
          'x-request-id',
          'etag',
          'location',
          'link',
        ]),
      );
      expect(list(response.headers.vary)).toContain('origin');
    }
  });

  it('gives another origin no CORS header (the browser keeps the answer from its page); its preflight is 404, not a 5xx', async () => {
    for (const origin of ['https://evil.example', 'https://app.pbx.example.evil.example', 'null', WEB_APP.toUpperCase()]) {
      const answer = await t.app.inject({ url: '/api/v1/me', headers: { ...bearer(user.token), origin } });
      expect(answer.headers['access-control-allow-origin'], origin).toBeUndefined();
      const refused = await t.app.inject(preflight('/api/v1/contacts', origin));
      expect(refused.statusCode, origin).toBe(404);
      expect(refused.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });
});

describe('CORS preflights and the rate limit', () => {
  it('are not counted (browsers send one per URL and method, which would drain a shared address)', async () => {
    const t = await buildTestApp({ env: { CORS_ORIGINS: WEB_APP, RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      for (let i = 0; i < 6; i++) expect((await t.app.inject(preflight(`/api/v1/contacts?page=${i}`, WEB_APP))).statusCode).toBe(204);
      const first = await t.app.inject({ url: '/api/v1/openapi.json', headers: { origin: WEB_APP } });
      expect(first.statusCode).toBe(200);
      expect(first.headers['x-ratelimit-remaining']).toBe('2');
    } finally {
      await t.close();
    }
  });
});

describe('CORS_CREDENTIALS=true', () => {
  it('lets the configured origins send credentials', async () => {
    const t = await buildTestApp({ env: { CORS_ORIGINS: WEB_APP, CORS_CREDENTIALS: 'true' } });
    try {
      const response = await t.app.inject(preflight('/api/v1/me', WEB_APP, 'GET'));
      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-credentials']).toBe('true');
      expect(response.headers['access-control-allow-origin']).toBe(WEB_APP);
    } finally {
      await t.close();
    }
  });
});
