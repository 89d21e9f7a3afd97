import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../../test/helpers.js';
import { createAdmin, createKey, createTenant, createUser } from '../../../../../test/factories.js';

describe('workforce settings', () => {
  const t = useTestApp();

  const call = apiCaller(() => t);

  it('every user of the PBX reads them; an administrator or the PBX API key changes the name order and the half-day split', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const path = `/${admin.pbxId}/workforce-settings`;
    const initial = await call('GET', path, user.token);
    expect(initial.statusCode).toBe(200);
    expect(initial.json()).toEqual({ data: { name_order: 'first_last', half_day_split: '12:00', timezone: 'Europe/Luxembourg' } });

    const changed = await call('PATCH', path, admin.token, { name_order: 'last_first', half_day_split: '13:30' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ data: { name_order: 'last_first', half_day_split: '13:30', timezone: 'Europe/Luxembourg' } });
    const pbxKey = await createKey(t.ctx, admin.tenant, 'pbx');
    expect((await call('PATCH', path, pbxKey, { half_day_split: '00:00' })).json().data).toEqual({
      name_order: 'last_first',
      half_day_split: '00:00',
      timezone: 'Europe/Luxembourg',
    });
    expect((await call('PATCH', path, admin.token, {})).json().data.half_day_split).toBe('00:00');
    expect((await call('GET', path, pbxKey)).json().data).toMatchObject({ name_order: 'last_first', half_day_split: '00:00' });

    const refused = await call('PATCH', path, user.token, { name_order: 'first_last' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: expect.any(String) });
    expect((await t.app.inject({ method: 'GET', url: `/api/v1${path}` })).statusCode).toBe(401);
  });

  it('refuses a bad name order, a split outside 00:00-23:59 and the read-only time zone with 422', async () => {
    const admin = await createAdmin(t.ctx);
    const path = `/${admin.pbxId}/workforce-settings`;
    const cases: Array<[object, string]> = [
      [{ name_order: 'last' }, 'name_order'],
      [{ half_day_split: '24:00' }, 'half_day_split'],
      [{ half_day_split: '12:60' }, 'half_day_split'],
      [{ half_day_split: '9:00' }, 'half_day_split'],
      [{ half_day_split: '12:00:00' }, 'half_day_split'],
      [{ half_day_split: 720 }, 'half_day_split'],
      [{ timezone: 'Europe/Berlin' }, 'timezone'],
    ];
    for (const [payload, field] of cases) {
      const response = await call('PATCH', path, admin.token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json(), JSON.stringify(payload)).toEqual({ message: expect.any(String), errors: { [field]: [expect.any(String)] } });
    }
    expect((await call('GET', path, admin.token)).json().data).toEqual({ name_order: 'first_last', half_day_split: '12:00', timezone: 'Europe/Luxembourg' });
    expect((await call('PATCH', path, admin.token, { half_day_split: '23:59' })).json().data.half_day_split).toBe('23:59');
  });

  it('another PBX in the path is 403, its settings untouched', async () => {
    const admin = await createAdmin(t.ctx);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', `/${stranger.pbxId}/workforce-settings`, admin.token)).statusCode).toBe(403);
    const refused = await call('PATCH', `/${stranger.pbxId}/workforce-settings`, admin.token, { name_order: 'last_first' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'You have no access to this PBX.' });
    expect((await call('GET', `/${stranger.pbxId}/workforce-settings`, stranger.token)).json().data.name_order).toBe('first_last');
  });
});
