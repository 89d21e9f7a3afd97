import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../../test/helpers.js';
import { createAdmin, createCompany, createKey, createTenant, createUser } from '../../../../../test/factories.js';
import { presentContractCompany } from './companies.presenter.js';
import { ContractCompanySchema } from './companies.schemas.js';

/** The keys of the contract's embedded user-company `company`, in its order. */
const CONTRACT_COMPANY_KEYS = [
  'id',
  'mxvp_user_id',
  'company',
  'address',
  'country_cc',
  'legalHolidays',
  'full_time',
  'salary_lu_id',
  'overtime_calculation_period_enabled',
  'overtime_decision_enabled',
  'delete_date',
];

describe('companies', () => {
  const t = useTestApp();

  const call = apiCaller(() => t);

  it('an administrator creates, lists, reads, changes, deletes and restores a company', async () => {
    const admin = await createAdmin(t.ctx);
    const path = `/${admin.pbxId}/companies`;
    const created = await call('POST', path, admin.token, {
      company: 'Acme Logistik GmbH',
      street: 'Leopoldstraße 10',
      postal_code: '80802',
      city: 'München',
      country_cc: 'de',
      region: 'by',
      legalHolidays: 30,
    });
    expect(created.statusCode).toBe(201);
    const company = created.json().data;
    expect(company).toEqual({
      id: expect.any(String),
      mxvp_user_id: admin.pbxId,
      company: 'Acme Logistik GmbH',
      street: 'Leopoldstraße 10',
      postal_code: '80802',
      city: 'München',
      address: 'Leopoldstraße 10 80802 München',
      country_cc: 'DE',
      region: 'BY',
      legalHolidays: 30,
      full_time: 144000,
      salary_lu_id: null,
      overtime_calculation_period_enabled: false,
      overtime_decision_enabled: false,
      delete_date: null,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });

    const other = (await call('POST', path, admin.token, { company: 'Acme Logistics S.à r.l.', city: 'Luxembourg', country_cc: 'LU' })).json().data;
    expect(other).toMatchObject({ address: 'Luxembourg', region: null, legalHolidays: 26, full_time: 144000 });

    const list = await call('GET', `${path}?perPage=1`, admin.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((c: { company: string }) => c.company)).toEqual(['Acme Logistics S.à r.l.']);
    expect(list.json().meta).toMatchObject({ total: 2, per_page: 1, last_page: 2, path: `http://pbx.test/api/v1${path}` });
    const sorted = await call('GET', `${path}?sort=-company`, admin.token);
    expect(sorted.json().data.map((c: { id: string }) => c.id)).toEqual([company.id, other.id]);
    expect((await call('GET', `${path}?search=münch`, admin.token)).json().data.map((c: { id: string }) => c.id)).toEqual([company.id]);
    expect((await call('GET', `${path}?filter[country_cc]=lu`, admin.token)).json().data.map((c: { id: string }) => c.id)).toEqual([other.id]);

    t.clock.advance(60);
    const patched = await call('PATCH', `${path}/${company.id}`, admin.token, {
      street: null,
      full_time: 108000,
      overtime_decision_enabled: true,
      legalHolidays: 27.5,
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({
      address: '80802 München',
      full_time: 108000,
      overtime_decision_enabled: true,
      legalHolidays: 27.5,
      region: 'BY',
      updated_at: t.clock.now().toISOString(),
    });
    expect((await call('GET', `${path}/${company.id}`, admin.token)).json().data).toEqual(patched.json().data);

    expect((await call('DELETE', `${path}/${company.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `${path}/${company.id}`, admin.token)).statusCode).toBe(404);
    expect((await call('DELETE', `${path}/${company.id}`, admin.token)).statusCode).toBe(404);
    expect((await call('GET', path, admin.token)).json().data.map((c: { id: string }) => c.id)).toEqual([other.id]);
    const trashed = await call('GET', `${path}?filter[trashed]=only`, admin.token);
    expect(trashed.json().data).toEqual([expect.objectContaining({ id: company.id, delete_date: t.clock.now().toISOString() })]);
    expect((await call('GET', `${path}?filter[trashed]=with`, admin.token)).json().meta.total).toBe(2);

    const restored = await call('POST', `${path}/${company.id}/restore`, admin.token);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ id: company.id, delete_date: null });
    expect((await call('POST', `${path}/${company.id}/restore`, admin.token)).statusCode).toBe(404);
  });

  it('refuses bad input with 422 and the contract body: unknown country, a region not of the country, bad numbers, read-only fields', async () => {
    const admin = await createAdmin(t.ctx);
    const path = `/${admin.pbxId}/companies`;
    const refused = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload: object | undefined, field: string) => {
      const response = await call(method, url, admin.token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json(), JSON.stringify(payload)).toEqual({ message: expect.any(String), errors: { [field]: [expect.any(String)] } });
      return response.json().errors[field][0] as string;
    };
    await refused('POST', path, { country_cc: 'LU' }, 'company');
    await refused('POST', path, { company: 'No country' }, 'country_cc');
    await refused('POST', path, { company: 'X', country_cc: 'LUX' }, 'country_cc');
    expect(await refused('POST', path, { company: 'X', country_cc: 'XX' }, 'country_cc')).toContain('no known public holidays');
    expect(await refused('POST', path, { company: 'X', country_cc: 'DE', region: 'ZZ' }, 'region')).toContain('Allowed: BB, BE');
    expect(await refused('POST', path, { company: 'X', country_cc: 'LU', region: 'BY' }, 'region')).toContain('region must be null');
    await refused('POST', path, { company: 'X', country_cc: 'LU', legalHolidays: -1 }, 'legalHolidays');
    await refused('POST', path, { company: 'X', country_cc: 'LU', legalHolidays: 25.3 }, 'legalHolidays');
    await refused('POST', path, { company: 'X', country_cc: 'LU', full_time: 0 }, 'full_time');
    await refused('POST', path, { company: 'X', country_cc: 'LU', full_time: 1.5 }, 'full_time');
    await refused('POST', path, { company: 'X', country_cc: 'LU', full_time: '144000' }, 'full_time');
    await refused('POST', path, { company: 'X', country_cc: 'LU', salary_lu_id: 4 }, 'salary_lu_id');
    await refused('POST', path, { company: '', country_cc: 'LU' }, 'company');

    const bavarian = await createCompany(t.ctx, admin.tenant, { country_cc: 'DE', region: 'BY' });
    // A new country re-checks the kept region.
    expect(await refused('PATCH', `${path}/${bavarian.id}`, { country_cc: 'AT' }, 'region')).toContain('not a region of AT');
    await refused('PATCH', `${path}/${bavarian.id}`, { address: 'Somewhere 1' }, 'address');
    await refused('PATCH', `${path}/not-a-uuid`, { city: 'Köln' }, 'company');
    const moved = await call('PATCH', `${path}/${bavarian.id}`, admin.token, { country_cc: 'AT', region: '9' });
    expect(moved.json().data).toMatchObject({ country_cc: 'AT', region: '9' });
    const cleared = await call('PATCH', `${path}/${bavarian.id}`, admin.token, { region: null });
    expect(cleared.json().data).toMatchObject({ country_cc: 'AT', region: null });
    await refused('GET', `${path}?filter[trashed]=all`, undefined, 'filter[trashed]');
    await refused('GET', `${path}?sort=name`, undefined, 'sort');
  });

  it('any user of the PBX reads companies; only administrators and the PBX API key write them (403)', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const pbxKey = await createKey(t.ctx, admin.tenant, 'pbx');
    const integrationKey = await createKey(t.ctx, admin.tenant, 'integration', ['contacts']);
    const path = `/${admin.pbxId}/companies`;
    const company = await createCompany(t.ctx, admin.tenant);

    expect((await call('GET', path, user.token)).json().data.map((c: { id: string }) => c.id)).toEqual([company.id]);
    expect((await call('GET', `${path}/${company.id}`, user.token)).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['POST', path, { company: 'Mine', country_cc: 'LU' }],
      ['PATCH', `${path}/${company.id}`, { company: 'Mine' }],
      ['DELETE', `${path}/${company.id}`, undefined],
      ['POST', `${path}/${company.id}/restore`, undefined],
    ] as const) {
      const refused = await call(method, url, user.token, body);
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(refused.json()).toEqual({ message: expect.any(String) });
    }
    expect((await call('GET', path, integrationKey)).statusCode).toBe(403);

    const byKey = await call('POST', path, pbxKey, { company: 'Keyed', country_cc: 'DE', region: 'NW' });
    expect(byKey.statusCode).toBe(201);
    expect((await call('GET', `${path}/${byKey.json().data.id as string}`, pbxKey)).json().data.company).toBe('Keyed');

    const anonymous = await t.app.inject({ method: 'GET', url: `/api/v1${path}` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: expect.any(String) });
  });

  it("another PBX in the path is 403; another tenant's company under the caller's own PBX is 404", async () => {
    const admin = await createAdmin(t.ctx);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    const theirs = await createCompany(t.ctx, stranger.tenant);
    const mine = await createCompany(t.ctx, admin.tenant);

    for (const [method, url, body] of [
      ['GET', `/${stranger.pbxId}/companies`, undefined],
      ['GET', `/${stranger.pbxId}/companies/${theirs.id}`, undefined],
      ['POST', `/${stranger.pbxId}/companies`, { company: 'Intruder', country_cc: 'LU' }],
      ['PATCH', `/${stranger.pbxId}/companies/${theirs.id}`, { company: 'Intruder' }],
      ['DELETE', `/${stranger.pbxId}/companies/${theirs.id}`, undefined],
      ['GET', `/${admin.pbxId.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))}/companies`, undefined],
    ] as const) {
      const refused = await call(method, url, admin.token, body);
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(refused.json()).toEqual({ message: 'You have no access to this PBX.' });
    }
    for (const [method, url, body] of [
      ['GET', `/${admin.pbxId}/companies/${theirs.id}`, undefined],
      ['PATCH', `/${admin.pbxId}/companies/${theirs.id}`, { company: 'Intruder' }],
      ['DELETE', `/${admin.pbxId}/companies/${theirs.id}`, undefined],
      ['POST', `/${admin.pbxId}/companies/${theirs.id}/restore`, undefined],
    ] as const) {
      const missing = await call(method, url, admin.token, body);
      expect(missing.statusCode, `${method} ${url}`).toBe(404);
      expect(missing.json()).toEqual({ message: ['Company not found.'] });
    }
    expect((await call('GET', `/${admin.pbxId}/companies`, admin.token)).json().data.map((c: { id: string }) => c.id)).toEqual([mine.id]);
    expect((await call('GET', `/${stranger.pbxId}/companies/${theirs.id}`, stranger.token)).json().data.company).toBe(theirs.name);
  });

  it("presents a contract's company in the contract's shape: all nulls for none, delete_date for a deleted one", async () => {
    expect(Object.keys(ContractCompanySchema.properties)).toEqual(CONTRACT_COMPANY_KEYS);
    const none = presentContractCompany(null);
    expect(Object.keys(none)).toEqual(CONTRACT_COMPANY_KEYS);
    expect(Object.values(none).every((value) => value === null)).toBe(true);

    const admin = await createAdmin(t.ctx);
    const row = await createCompany(t.ctx, admin.tenant, {
      company: 'Acme',
      street: '1 Main St',
      city: 'Esch',
      full_time: 72000,
      overtime_decision_enabled: true,
    });
    expect(presentContractCompany(row)).toEqual({
      id: row.id,
      mxvp_user_id: admin.pbxId,
      company: 'Acme',
      address: '1 Main St Esch',
      country_cc: 'LU',
      legalHolidays: 26,
      full_time: 72000,
      salary_lu_id: null,
      overtime_calculation_period_enabled: false,
      overtime_decision_enabled: true,
      delete_date: null,
    });
    expect(Object.keys(presentContractCompany(row))).toEqual(CONTRACT_COMPANY_KEYS);
    expect(presentContractCompany({ ...row, deleted_at: '2026-02-01T00:00:00.000Z' }).delete_date).toBe('2026-02-01T00:00:00.000Z');
  });
});
