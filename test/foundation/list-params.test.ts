import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../../src/http/error-handler.js';
import { buildValidator } from '../../src/http/validator.js';
import { ListQuery } from '../../src/http/list-query.js';
import { bearer, buildTestApp, type TestApp } from '../helpers.js';
import { createAdmin } from '../factories.js';

describe('list parameters on a real list endpoint', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp();
    token = (await createAdmin(t.ctx)).token;
    for (const name of ['Zulu', 'alpha', 'Mike', 'bravo']) {
      await t.app.inject({ method: 'POST', url: '/api/v1/integrations/api-keys', headers: bearer(token), payload: { name, scopes: ['contacts'] } });
    }
  });
  afterAll(() => t.close());
  const list = (query: string) => t.app.inject({ method: 'GET', url: `/api/v1/integrations/api-keys?${query}`, headers: bearer(token) });

  it('sorts, searches and pages', async () => {
    const sorted = await list('sort=-name&perPage=2&page=2');
    expect(sorted.statusCode).toBe(200);
    expect(sorted.json().meta).toMatchObject({ total: 4, per_page: 2, current_page: 2, last_page: 2 });
    expect(sorted.json().data).toHaveLength(2);
    const searched = await list('search=RAV');
    expect(searched.json().data.map((k: { name: string }) => k.name)).toEqual(['bravo']);
    const literal = await list('search=%25');
    expect(literal.json().data).toEqual([]);
  });

  it('refuses an unknown sort, page 0, a huge page and a page size over the maximum with 422', async () => {
    const unknownSort = await list('sort=password');
    expect(unknownSort.statusCode).toBe(422);
    expect(unknownSort.json().errors.sort[0]).toContain('Allowed: name, -name, created_at, -created_at');
    expect((await list('page=0')).json().errors).toHaveProperty('page');
    expect((await list('page=99999999999')).statusCode).toBe(422);
    const tooBig = await list('perPage=101');
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().errors.perPage).toEqual(['The perPage field must not be greater than 100.']);
    expect((await list('perPage=abc')).json().errors.perPage).toEqual(['The perPage field must be an integer.']);
  });
});

describe('include allow-list', () => {
  const app = Fastify();
  beforeAll(async () => {
    app.setValidatorCompiler(buildValidator());
    registerErrorHandling(app, false);
    app.get(
      '/things',
      { schema: { querystring: ListQuery({ include: ['user.groups', 'sipDevice'], pageSize: 'per_page' }) } },
      async (request) => request.query,
    );
    await app.ready();
  });
  afterAll(() => app.close());

  it('accepts listed relations and their parents, comma-separated', async () => {
    expect((await app.inject('/things?include=user.groups,sipDevice')).statusCode).toBe(200);
    expect((await app.inject('/things?include=user')).statusCode).toBe(200);
    expect((await app.inject('/things?per_page=5')).statusCode).toBe(200);
  });

  it('refuses anything else with 422 naming the allowed values', async () => {
    const response = await app.inject('/things?include=user.password');
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.include).toEqual(['The selected include is invalid. Allowed: user, user.groups, sipDevice.']);
    expect((await app.inject('/things?include=user,')).statusCode).toBe(422);
  });
});
