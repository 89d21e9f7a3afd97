import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../../src/http/error-handler.js';
import { buildValidator } from '../../src/http/validator.js';
import { ListQuery } from '../../src/http/list-query.js';
import { bearer, useTestApp } from '../helpers.js';
import { createAdmin } from '../factories.js';

describe('list parameters on a real list endpoint', () => {
  let token: string;
  const t = useTestApp();
  beforeAll(async () => {
    token = (await createAdmin(t.ctx)).token;
    for (const name of ['Zulu', 'alpha', 'Mike', 'bravo']) {
      await t.app.inject({ method: 'POST', url: '/api/v1/integrations/api-keys', headers: bearer(token), payload: { name, scopes: ['contacts'] } });
    }
  });
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

describe('query keys a route does not take', () => {
  let token: string;
  const t = useTestApp();
  beforeAll(async () => {
    token = (await createAdmin(t.ctx)).token;
  });
  const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(token) });

  it('refuses an include where nothing is embedded, with the 422 of an include outside an allow-list', async () => {
    const response = await get('/integrations/api-keys?include=owner');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      message: 'The selected include is invalid: this endpoint embeds no relations.',
      errors: { include: ['The selected include is invalid: this endpoint embeds no relations.'] },
    });
    // A read that declares no query string at all, and an empty include.
    expect((await get('/me?include=')).json().errors).toHaveProperty('include');
    // Where there is an allow-list, sent twice is refused as not one value.
    const twice = await get('/users?include=groups&include=extensions');
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors.include).toEqual(['The include field must be a string.']);
  });

  it('refuses a filter the list does not declare, naming the ones it does', async () => {
    const typo = await get('/integrations/api-keys?filter[revokd]=1');
    expect(typo.statusCode).toBe(422);
    expect(typo.json().errors).toEqual({ 'filter[revokd]': ['The filter[revokd] parameter is not accepted here. Filters: filter[revoked].'] });
    expect((await get('/integrations/api-keys?filter[revoked]=1')).statusCode).toBe(200);
    const none = await get('/me?filter[x]=1');
    expect(none.json().errors).toEqual({ 'filter[x]': ['The filter[x] parameter is not accepted here: this endpoint takes no filters.'] });
    // Other undeclared keys, such as a cache buster, still pass.
    expect((await get('/integrations/api-keys?_=1700000000')).statusCode).toBe(200);
  });

  it('refuses sort on a list with a fixed order and search on a list without one', async () => {
    const document = (await t.app.inject('/api/v1/openapi.json')).json<{
      paths: Record<string, { get?: { parameters?: Array<{ name: string; in: string }> } }>;
    }>();
    const lists = Object.entries(document.paths).filter(([, methods]) => methods.get?.parameters?.some((p) => p.name === 'perPage' || p.name === 'per_page'));
    const without = (name: string) => lists.find(([path, methods]) => !path.includes('{') && !methods.get!.parameters!.some((p) => p.name === name))?.[0];
    const fixedOrder = without('sort');
    const noSearch = without('search');
    expect(fixedOrder ?? noSearch).toBeDefined();
    if (fixedOrder)
      expect((await get(`${fixedOrder}?sort=name`)).json().errors).toEqual({ sort: ['The sort parameter is not accepted here: this list has a fixed order.'] });
    if (noSearch)
      expect((await get(`${noSearch}?search=x`)).json().errors).toEqual({ search: ['The search parameter is not accepted here: this list has no search.'] });
  });

  it('names every refused key of one request together', async () => {
    const response = await get('/integrations/api-keys?per_page=5&filter[a]=1&include=x&sort=nope');
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual(['filter[a]', 'include', 'per_page', 'sort']);
    expect(response.json().errors.per_page).toEqual(['The per_page parameter is not accepted here; the page size is perPage.']);
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
