import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../../src/http/error-handler.js';
import { bearer, useTestApp } from '../helpers.js';
import { createAdmin } from '../factories.js';

describe('error bodies and content rules', () => {
  let token: string;
  const t = useTestApp({ config: { bodyLimitBytes: 2048 } });
  beforeAll(async () => {
    token = (await createAdmin(t.ctx)).token;
  });

  const post = (payload: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/integrations/api-keys',
      headers: { ...bearer(token), 'content-type': 'application/json', ...headers },
      payload,
    });

  it('401 {error} without a token, and with a malformed or unknown one', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer nope' },
      { authorization: 'Bearer pbxu_000000000000000000000000000000000000' },
      { authorization: 'Basic abc def' },
    ]) {
      const response = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers });
      expect(response.statusCode).toBe(401);
      expect(Object.keys(response.json())).toEqual(['error']);
    }
  });

  it('a URL the router cannot read gets the contract body, not the one of the router (which echoes the URL)', async () => {
    const cases: Array<[string, number]> = [
      [`/api/v1/contacts/%E0%A4%A`, 400],
      [`/api/v1/contacts/${'x'.repeat(300)}`, 414],
    ];
    for (const [url, status] of cases) {
      const response = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(response.statusCode, url).toBe(status);
      expect(Object.keys(response.json()), url).toEqual(['message']);
      expect(response.body).not.toContain('xxxx');
      expect(response.headers['x-request-id']).toEqual(expect.any(String));
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('422 naming the field for text holding U+0000, in a body, deep in it, or in a query (PostgreSQL cannot store it)', async () => {
    const cases: Array<[string, string, object | undefined, string]> = [
      ['POST', '/api/v1/integrations/api-keys', { name: 'CRM\u0000sync', scopes: ['contacts'] }, 'name'],
      ['POST', '/api/v1/calls/new', { destination: '102', targets: { sip_devices: ['desk', 'ph\u0000one'] } }, 'targets.sip_devices.1'],
      ['GET', '/api/v1/contacts?search=an%00na', undefined, 'search'],
    ];
    for (const [method, url, payload, field] of cases) {
      const response = await t.app.inject({ method: method as 'GET', url, headers: bearer(token), ...(payload ? { payload } : {}) });
      expect(response.statusCode, url).toBe(422);
      expect(response.json().errors, url).toEqual({ [field]: [`The ${field.replace(/_/g, ' ')} field must not contain the NUL character (U+0000).`] });
    }
  });

  it('404 {message: [..]} for an unknown route, with rate-limit headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toEqual([expect.stringContaining('could not be found')]);
    expect(response.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('422 {message, errors} with the field names as sent', async () => {
    const response = await post(JSON.stringify({ name: 42, scopes: [], extra: true }));
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(typeof body.message).toBe('string');
    expect(body.errors.name).toEqual(['The name field must be a string.']);
    expect(body.errors.scopes).toEqual(['The scopes field must have at least 1 item.']);
    expect(body.errors.extra).toEqual(['The extra field is not allowed.']);
  });

  it('does not coerce body types: "5" is not an array and true is not a string', async () => {
    const response = await post(JSON.stringify({ name: true, scopes: 'call-history' }));
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual(['name', 'scopes']);
  });

  it('malformed JSON is a 422 on the body and writes nothing', async () => {
    const response = await post('{"name": "x", "scopes": [');
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toHaveProperty('body');
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/integrations/api-keys', headers: bearer(token) });
    expect(list.json().meta.total).toBe(0);
  });

  it('415 for a body that is not JSON, 413 above the body limit, 406 when JSON is not acceptable', async () => {
    expect((await post('name=x', { 'content-type': 'application/x-www-form-urlencoded' })).statusCode).toBe(415);
    expect((await post('hello', { 'content-type': 'text/plain' })).statusCode).toBe(415);
    const big = await post(JSON.stringify({ name: 'x'.repeat(5000), scopes: ['contacts'] }));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ message: expect.any(String) });
    const xml = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { ...bearer(token), accept: 'application/xml' } });
    expect(xml.statusCode).toBe(406);
    const any = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { ...bearer(token), accept: 'text/html, */*;q=0.8' } });
    expect(any.statusCode).toBe(200);
  });

  it('SQL-looking search and filter values are plain text', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/integrations/api-keys?search=${encodeURIComponent("x' OR 1=1; DROP TABLE users; --")}&filter[revoked]=false`,
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual([]);
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/v1/integrations/api-keys?filter[revoked]=${encodeURIComponent("1' or '1'='1")}`,
      headers: bearer(token),
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty(['filter[revoked]']);
  });

  it('echoes a sane x-request-id and replaces a hostile one', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'client-req-12345' } });
    expect(ok.headers['x-request-id']).toBe('client-req-12345');
    const hostile = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'a\u0000b<script>'.repeat(20) } });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('5XX bodies', () => {
  const build = async (production: boolean) => {
    const app = Fastify();
    registerErrorHandling(app, production);
    app.get('/boom', async () => {
      throw new TypeError('kaboom');
    });
    return app;
  };

  it('carries exception, file and line outside production', async () => {
    const app = await build(false);
    const body = (await app.inject('/boom')).json();
    expect(body).toMatchObject({ message: 'kaboom', exception: 'TypeError', file: expect.stringContaining('errors.test'), line: expect.any(Number) });
  });

  it('is only {message} in production', async () => {
    const app = await build(true);
    const response = await app.inject('/boom');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: 'Server Error' });
  });
});

describe('accept negotiation', async () => {
  const { acceptsAny } = await import('../../src/http/content.js');
  it('admits JSON, wildcards and +json; a download also admits its own media type', () => {
    expect(acceptsAny('application/json', ['application/json'])).toBe(true);
    expect(acceptsAny('text/html,application/xhtml+xml,*/*;q=0.8', ['application/json'])).toBe(true);
    expect(acceptsAny('application/problem+json', ['application/json'])).toBe(true);
    expect(acceptsAny('application/xml', ['application/json'])).toBe(false);
    expect(acceptsAny('application/json;q=0', ['application/json'])).toBe(false);
    expect(acceptsAny('audio/wav', ['application/json', 'audio/*'])).toBe(true);
    expect(acceptsAny('audio/wav', ['application/json'])).toBe(false);
  });
});
