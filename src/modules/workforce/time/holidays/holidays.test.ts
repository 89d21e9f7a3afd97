import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../platform/clock.js';
import { apiCaller, useTestApp } from '../../../../../test/helpers.js';
import { createAdmin, createCompany, createTenant } from '../../../../../test/factories.js';
import { createWorkforceTenant, type WorkforceSetup } from '../../../../../test/workforce-factories.js';

const NOW = '2026-03-15T09:00:00.000Z';

describe("the tenant's holidays and the public holiday calendar", () => {
  const t = useTestApp({ clock: new ManualClock(NOW), env: { RATE_LIMIT_PER_MINUTE: '10000' } });
  const call = apiCaller(() => t);

  const addHoliday = async (s: WorkforceSetup, body: Record<string, unknown>) => {
    const response = await call('POST', `/${s.tenant.pbxId}/holidays`, s.admin.token, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.id as string;
  };

  describe('/{pbx_id}/holidays', () => {
    let s: WorkforceSetup;
    beforeAll(async () => {
      s = await createWorkforceTenant(t.ctx);
    });
    const holidays = () => `/${s.tenant.pbxId}/holidays`;

    it('creates, reads, lists, changes, deletes and restores a holiday', async () => {
      const created = await call('POST', holidays(), s.admin.token, { date: '2020-12-24', name: 'Christmas Eve', half_day: true, recurring: true });
      expect(created.statusCode).toBe(201);
      const id = created.json().data.id;
      expect(created.json().data).toEqual({
        id,
        date: '2020-12-24',
        name: 'Christmas Eve',
        half_day: true,
        recurring: true,
        company_id: null,
        created_at: NOW,
        updated_at: NOW,
        delete_date: null,
      });
      const event = await addHoliday(s, { date: '2026-09-11', name: 'Company outing', company_id: s.company.id });
      // Any user of the PBX reads them.
      const list = await call('GET', holidays(), s.worker.token);
      expect(list.json().data.map((row: { id: string }) => row.id)).toEqual([id, event]);
      expect(list.json().meta).toMatchObject({ total: 2, per_page: 15 });
      expect((await call('GET', `${holidays()}/${event}`, s.worker.token)).json().data).toMatchObject({
        company_id: s.company.id,
        half_day: false,
        recurring: false,
      });
      expect((await call('GET', `${holidays()}?filter[recurring]=1`, s.pbxKey)).json().data.map((row: { id: string }) => row.id)).toEqual([id]);
      expect((await call('GET', `${holidays()}?search=outing&sort=-name`, s.worker.token)).json().data.map((row: { id: string }) => row.id)).toEqual([event]);
      const other = await createCompany(t.ctx, s.tenant, { country_cc: 'DE', region: 'BY' });
      expect((await call('GET', `${holidays()}?filter[company_id]=${other.id}`, s.worker.token)).json().data.map((row: { id: string }) => row.id)).toEqual([
        id,
      ]);

      const changed = await call('PATCH', `${holidays()}/${event}`, s.pbxKey, { half_day: true, company_id: null, name: 'Team day' });
      expect(changed.json().data).toMatchObject({ half_day: true, company_id: null, name: 'Team day', date: '2026-09-11' });
      expect((await call('DELETE', `${holidays()}/${event}`, s.admin.token)).statusCode).toBe(204);
      expect((await call('GET', `${holidays()}/${event}`, s.admin.token)).statusCode).toBe(404);
      expect((await call('GET', `${holidays()}?filter[trashed]=only`, s.admin.token)).json().data.map((row: { id: string }) => row.id)).toEqual([event]);
      expect((await call('GET', `${holidays()}?filter[trashed]=only`, s.worker.token)).statusCode).toBe(403);
      expect((await call('POST', `${holidays()}/${event}/restore`, s.admin.token)).json().data.delete_date).toBeNull();
    });

    it('validates the body (422)', async () => {
      const foreign = await createCompany(t.ctx, await createTenant(t.ctx));
      for (const [body, fields] of [
        [{ name: 'No date' }, ['date']],
        [{ date: '2026-05-01' }, ['name']],
        [{ date: '2026-02-30', name: 'Nope' }, ['date']],
        [{ date: '2026-05-01T00:00:00Z', name: 'Time' }, ['date']],
        [{ date: '2026-05-01', name: 'x'.repeat(256) }, ['name']],
        [{ date: '2026-05-01', name: 'Flag', half_day: 'yes' }, ['half_day']],
        [{ date: '2026-05-01', name: 'Foreign', company_id: foreign.id }, ['company_id']],
        [{ date: '2026-05-01', name: 'Extra', pbx_id: s.tenant.pbxId }, ['pbx_id']],
      ] as const) {
        const response = await call('POST', holidays(), s.admin.token, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(422);
        expect(response.json(), JSON.stringify(body)).toEqual({ message: expect.any(String), errors: expect.any(Object) });
        expect(Object.keys(response.json().errors), JSON.stringify(body)).toEqual(fields);
      }
    });

    it('writes are for administrators and the PBX key; another tenant is 403 by path and 404 by id; no token 401', async () => {
      const id = await addHoliday(s, { date: '2026-08-01', name: 'Summer' });
      for (const [method, url, body] of [
        ['POST', holidays(), { date: '2026-08-02', name: 'Mine' }],
        ['PATCH', `${holidays()}/${id}`, { name: 'Mine' }],
        ['DELETE', `${holidays()}/${id}`, undefined],
        ['POST', `${holidays()}/${id}/restore`, undefined],
      ] as const) {
        expect((await call(method, url, s.worker.token, body)).statusCode, `${method} ${url}`).toBe(403);
        expect((await t.app.inject({ method, url: `/api/v1${url}` })).statusCode).toBe(401);
      }
      expect((await t.app.inject({ method: 'GET', url: `/api/v1${holidays()}` })).statusCode).toBe(401);
      const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
      expect((await call('GET', holidays(), stranger.token)).statusCode).toBe(403);
      expect((await call('GET', `/${stranger.pbxId}/holidays/${id}`, stranger.token)).json()).toEqual({ message: ['Holiday not found.'] });
      expect((await call('PATCH', `/${stranger.pbxId}/holidays/${id}`, stranger.token, { name: 'x' })).statusCode).toBe(404);
      expect((await call('GET', `/${stranger.pbxId}/holidays`, stranger.token)).json().data).toEqual([]);
    });
  });

  describe('/{pbx_id}/public-holidays', () => {
    const calendar = (s: WorkforceSetup, query: string, token = s.worker.token) => call('GET', `/${s.tenant.pbxId}/public-holidays?${query}`, token);

    it("gives a Bavarian company's days off: public holidays, regional ones and the tenant's own (recurring ones each year)", async () => {
      const s = await createWorkforceTenant(t.ctx);
      const munich = await createCompany(t.ctx, s.tenant, { name: 'Acme Logistik GmbH', country_cc: 'DE', region: 'BY' });
      await addHoliday(s, { date: '2020-12-24', name: 'Christmas Eve', half_day: true, recurring: true });
      await addHoliday(s, { date: '2026-12-31', name: 'Munich only', company_id: munich.id });
      await addHoliday(s, { date: '2026-12-30', name: 'Luxembourg only', company_id: s.company.id });
      const response = await calendar(s, `filter[from]=2026-12-20&filter[to]=2027-01-10&filter[company_id]=${munich.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        data: [
          { date: '2026-12-24', name: 'Christmas Eve', half_day: true, source: 'tenant' },
          { date: '2026-12-25', name: '1. Weihnachtstag', half_day: false, source: 'public' },
          { date: '2026-12-26', name: '2. Weihnachtstag', half_day: false, source: 'public' },
          { date: '2026-12-31', name: 'Munich only', half_day: false, source: 'tenant' },
          { date: '2027-01-01', name: 'Neujahr', half_day: false, source: 'public' },
          { date: '2027-01-06', name: 'Heilige Drei Könige', half_day: false, source: 'public' },
        ],
      });
      // Luxembourg's calendar for the same tenant: no Epiphany, its own company day, the shared Christmas Eve.
      const lu = await calendar(s, `filter[from]=2026-12-20&filter[to]=2027-01-10&filter[company_id]=${s.company.id}`, s.pbxKey);
      expect(lu.json().data.map((day: { date: string }) => day.date)).toEqual(['2026-12-24', '2026-12-25', '2026-12-26', '2026-12-30', '2027-01-01']);
      // A recurring holiday does not reach back before its first year.
      const early = await calendar(s, `filter[from]=2019-12-01&filter[to]=2019-12-31&filter[company_id]=${s.company.id}`);
      expect(early.json().data.map((day: { source: string }) => day.source)).toEqual(['public', 'public']);
    });

    it('answers 366 days and refuses 367, reversed ranges, missing filters and unknown companies (422)', async () => {
      const s = await createWorkforceTenant(t.ctx);
      const ok = await calendar(s, `filter[from]=2028-01-01&filter[to]=2028-12-31&filter[company_id]=${s.company.id}`);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data).toHaveLength(11);
      const foreign = await createCompany(t.ctx, await createTenant(t.ctx));
      for (const [query, field] of [
        [`filter[from]=2026-01-01&filter[to]=2027-01-02&filter[company_id]=${s.company.id}`, 'filter[to]'],
        [`filter[from]=2026-02-01&filter[to]=2026-01-31&filter[company_id]=${s.company.id}`, 'filter[to]'],
        [`filter[to]=2026-01-31&filter[company_id]=${s.company.id}`, 'filter[from]'],
        ['filter[from]=2026-01-01&filter[to]=2026-01-31', 'filter[company_id]'],
        [`filter[from]=2026-01-01&filter[to]=2026-01-31&filter[company_id]=${foreign.id}`, 'filter[company_id]'],
        [`filter[from]=2026-01-01T00:00:00Z&filter[to]=2026-01-31&filter[company_id]=${s.company.id}`, 'filter[from]'],
      ]) {
        const response = await calendar(s, query);
        expect(response.statusCode, query).toBe(422);
        expect(response.json(), query).toEqual({ message: expect.any(String), errors: { [field]: [expect.any(String)] } });
      }
    });

    it('is for users of the PBX: another PBX is 403, no token 401', async () => {
      const s = await createWorkforceTenant(t.ctx);
      const query = `filter[from]=2026-01-01&filter[to]=2026-01-31&filter[company_id]=${s.company.id}`;
      const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
      expect((await call('GET', `/${s.tenant.pbxId}/public-holidays?${query}`, stranger.token)).statusCode).toBe(403);
      expect((await call('GET', `/${stranger.pbxId}/public-holidays?${query}`, stranger.token)).statusCode).toBe(422);
      expect((await t.app.inject({ method: 'GET', url: `/api/v1/${s.tenant.pbxId}/public-holidays?${query}` })).statusCode).toBe(401);
      expect((await calendar(s, query, s.outsider.token)).statusCode).toBe(200);
    });
  });
});
