import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../platform/clock.js';
import { apiCaller, useTestApp } from '../../../../../test/helpers.js';
import { createAdmin, createEmployee, createTenant } from '../../../../../test/factories.js';
import { createWorkforceTenant, type WorkforceSetup } from '../../../../../test/workforce-factories.js';

const NOW = '2026-03-15T09:00:00.000Z';
const FULL_TIME = { monday: 28800, tuesday: 28800, wednesday: 28800, thursday: 28800, friday: 28800 };

describe('work shifts and their assignments', () => {
  const t = useTestApp({ clock: new ManualClock(NOW), env: { RATE_LIMIT_PER_MINUTE: '10000' } });
  const call = apiCaller(() => t);

  const createShift = async (s: WorkforceSetup, body: Record<string, unknown>) => {
    const response = await call('POST', `/${s.tenant.pbxId}/work-shifts`, s.admin.token, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.id as string;
  };

  describe('work shifts', () => {
    let s: WorkforceSetup;
    beforeAll(async () => {
      s = await createWorkforceTenant(t.ctx);
    });
    const shifts = () => `/${s.tenant.pbxId}/work-shifts`;

    it('creates a weekly pattern with its weekly seconds, reads, changes, deletes and restores it', async () => {
      const created = await call('POST', shifts(), s.admin.token, { name: 'Full time 40 h', ...FULL_TIME });
      expect(created.statusCode).toBe(201);
      const id = created.json().data.id;
      expect(created.json().data).toEqual({
        id,
        name: 'Full time 40 h',
        ...FULL_TIME,
        saturday: 0,
        sunday: 0,
        weekly_seconds: 144000,
        created_at: NOW,
        updated_at: NOW,
        delete_date: null,
      });
      // Any user of the PBX reads them; the PBX key too.
      expect((await call('GET', `${shifts()}/${id}`, s.worker.token)).json().data).toEqual(created.json().data);
      expect((await call('GET', `${shifts()}/${id}`, s.pbxKey)).statusCode).toBe(200);

      const changed = await call('PATCH', `${shifts()}/${id}`, s.pbxKey, { friday: 14400, saturday: 3600 });
      expect(changed.json().data).toMatchObject({ name: 'Full time 40 h', friday: 14400, saturday: 3600, weekly_seconds: 144000 - 14400 + 3600 });

      expect((await call('DELETE', `${shifts()}/${id}`, s.admin.token)).statusCode).toBe(204);
      expect((await call('GET', `${shifts()}/${id}`, s.admin.token)).statusCode).toBe(404);
      expect((await call('GET', `${shifts()}?filter[trashed]=only`, s.admin.token)).json().data.map((row: { id: string }) => row.id)).toEqual([id]);
      expect((await call('GET', `${shifts()}?filter[trashed]=only`, s.worker.token)).statusCode).toBe(403);
      const restored = await call('POST', `${shifts()}/${id}/restore`, s.admin.token);
      expect(restored.statusCode).toBe(200);
      expect(restored.json().data.delete_date).toBeNull();
    });

    it('lists with perPage, search and sort by name or weekly seconds', async () => {
      const own = await createWorkforceTenant(t.ctx);
      const list = (query: string) => call('GET', `/${own.tenant.pbxId}/work-shifts?${query}`, own.worker.token);
      await createShift(own, { name: 'Part time 50 %', monday: 14400, tuesday: 14400, wednesday: 14400, thursday: 14400, friday: 14400 });
      await createShift(own, { name: 'Full time 40 h', ...FULL_TIME });
      await createShift(own, { name: 'Part time 3 days', monday: 28800, tuesday: 28800, wednesday: 28800 });
      const names = async (query: string) => (await list(query)).json().data.map((row: { name: string }) => row.name);
      expect(await names('')).toEqual(['Full time 40 h', 'Part time 3 days', 'Part time 50 %']);
      expect(await names('sort=-weekly_seconds')).toEqual(['Full time 40 h', 'Part time 3 days', 'Part time 50 %']);
      expect(await names('sort=weekly_seconds')).toEqual(['Part time 50 %', 'Part time 3 days', 'Full time 40 h']);
      expect(await names('search=part')).toEqual(['Part time 3 days', 'Part time 50 %']);
      const page = await list('perPage=2&page=2');
      expect(page.json().meta).toMatchObject({ per_page: 2, current_page: 2, total: 3, last_page: 2 });
    });

    it('validates names and seconds (422); a live name is unique, a deleted one frees it', async () => {
      for (const [body, field] of [
        [{ monday: 3600 }, 'name'],
        [{ name: '' }, 'name'],
        [{ name: 'x'.repeat(256) }, 'name'],
        [{ name: 'Long', monday: 86401 }, 'monday'],
        [{ name: 'Negative', sunday: -1 }, 'sunday'],
        [{ name: 'Fraction', tuesday: 1.5 }, 'tuesday'],
        [{ name: 'Text', friday: '3600' }, 'friday'],
        [{ name: 'Extra', holiday: 0 }, 'holiday'],
      ] as const) {
        const response = await call('POST', shifts(), s.admin.token, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(422);
        expect(Object.keys(response.json().errors), JSON.stringify(body)).toEqual([field]);
      }
      const first = await createShift(s, { name: 'Night', monday: 86400 });
      const duplicate = await call('POST', shifts(), s.admin.token, { name: 'Night' });
      expect(duplicate.statusCode).toBe(422);
      expect(duplicate.json()).toEqual({ message: 'The name has already been taken.', errors: { name: ['The name has already been taken.'] } });
      const other = await createShift(s, { name: 'Day' });
      expect((await call('PATCH', `${shifts()}/${other}`, s.admin.token, { name: 'Night' })).statusCode).toBe(422);
      await call('DELETE', `${shifts()}/${first}`, s.admin.token);
      await createShift(s, { name: 'Night' });
      // The deleted one cannot come back under a name now taken.
      const restore = await call('POST', `${shifts()}/${first}/restore`, s.admin.token);
      expect(restore.statusCode).toBe(422);
      expect(restore.json().errors).toEqual({ name: ['The name has already been taken.'] });
      // Another tenant may use the same name.
      const elsewhere = await createWorkforceTenant(t.ctx);
      await createShift(elsewhere, { name: 'Night' });
    });

    it('writes are for administrators and the PBX key; another tenant is 403 by path and 404 by id; no token 401', async () => {
      const id = await createShift(s, { name: 'Writers only' });
      for (const [method, url, body] of [
        ['POST', shifts(), { name: 'Mine' }],
        ['PATCH', `${shifts()}/${id}`, { name: 'Mine' }],
        ['DELETE', `${shifts()}/${id}`, undefined],
        ['POST', `${shifts()}/${id}/restore`, undefined],
      ] as const) {
        expect((await call(method, url, s.worker.token, body)).statusCode, `${method} ${url}`).toBe(403);
        expect((await t.app.inject({ method, url: `/api/v1${url}` })).statusCode).toBe(401);
      }
      expect((await t.app.inject({ method: 'GET', url: `/api/v1${shifts()}` })).statusCode).toBe(401);
      const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
      expect((await call('GET', shifts(), stranger.token)).statusCode).toBe(403);
      expect((await call('GET', `${shifts()}/${id}`, stranger.token)).statusCode).toBe(403);
      expect((await call('GET', `/${stranger.pbxId}/work-shifts/${id}`, stranger.token)).json()).toEqual({ message: ['Work shift not found.'] });
      expect((await call('PATCH', `/${stranger.pbxId}/work-shifts/${id}`, stranger.token, { name: 'x' })).statusCode).toBe(404);
      expect((await call('GET', `/${stranger.pbxId}/work-shifts`, stranger.token)).json().data).toEqual([]);
    });
  });

  describe('assignments', () => {
    let s: WorkforceSetup;
    let fullTime: string;
    let partTime: string;
    beforeAll(async () => {
      s = await createWorkforceTenant(t.ctx);
      fullTime = await createShift(s, { name: 'Full time 40 h', ...FULL_TIME });
      partTime = await createShift(s, { name: 'Part time 50 %', monday: 14400, tuesday: 14400, wednesday: 14400, thursday: 14400, friday: 14400 });
    });
    const assignments = (employeeId = s.employee.id) => `/${s.tenant.pbxId}/user/${employeeId}/work-shift-assignments`;
    const one = (id: string) => `/${s.tenant.pbxId}/work-shift-assignments/${id}`;
    const assign = async (body: Record<string, unknown>, employeeId = s.employee.id) => {
      const response = await call('POST', assignments(employeeId), s.admin.token, body);
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data.id as string;
    };

    it('assigns a work shift over a period and lists it for the employee, the newest first', async () => {
      const created = await call('POST', assignments(), s.admin.token, { work_shift_id: fullTime, valid_from: '2024-01-01', valid_until: '2025-12-31' });
      expect(created.statusCode).toBe(201);
      const first = created.json().data;
      expect(first).toEqual({
        id: first.id,
        employee_id: s.employee.id,
        work_shift_id: fullTime,
        valid_from: '2024-01-01',
        valid_until: '2025-12-31',
        work_shift: expect.objectContaining({ id: fullTime, name: 'Full time 40 h', weekly_seconds: 144000 }),
        created_at: NOW,
        updated_at: NOW,
        delete_date: null,
      });
      const second = await assign({ work_shift_id: partTime, valid_from: '2026-01-01' });
      const own = await call('GET', assignments(), s.worker.token);
      expect(own.statusCode).toBe(200);
      expect(own.json().data.map((row: { id: string }) => row.id)).toEqual([second, first.id]);
      expect(own.json().data[0]).not.toHaveProperty('work_shift');
      expect(own.json().data[0].valid_until).toBeNull();
      const embedded = await call('GET', `${assignments()}?include=work_shift&sort=valid_from&perPage=1`, s.worker.token);
      expect(embedded.json().data[0]).toMatchObject({ id: first.id, work_shift: { name: 'Full time 40 h' } });
      expect(embedded.json().meta).toMatchObject({ per_page: 1, total: 2 });
      const during = await call('GET', `${assignments()}?filter[from]=2025-06-01&filter[to]=2025-06-30`, s.worker.token);
      expect(during.json().data.map((row: { id: string }) => row.id)).toEqual([first.id]);
      const bad = await call('GET', `${assignments()}?filter[from]=2025-06-01&filter[to]=2025-05-31`, s.worker.token);
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().errors)).toEqual(['filter[to]']);
    });

    it('refuses a period overlapping another live assignment of the employee, naming it (422)', async () => {
      const e = await createEmployee(t.ctx, s.tenant);
      const existing = await assign({ work_shift_id: fullTime, valid_from: '2026-01-01', valid_until: '2026-06-30' }, e.id);
      for (const period of [
        { valid_from: '2026-06-30' },
        { valid_from: '2025-01-01', valid_until: '2026-01-01' },
        { valid_from: '2025-01-01', valid_until: null },
        { valid_from: '2026-03-01', valid_until: '2026-03-31' },
      ]) {
        const response = await call('POST', assignments(e.id), s.admin.token, { work_shift_id: partTime, ...period });
        expect(response.statusCode, JSON.stringify(period)).toBe(422);
        expect(response.json().errors.valid_from[0]).toContain(existing);
        expect(response.json().errors.valid_from[0]).toContain('2026-01-01 to 2026-06-30');
      }
      // Touching is fine; so is another employee's period.
      const next = await assign({ work_shift_id: partTime, valid_from: '2026-07-01' }, e.id);
      await assign({ work_shift_id: partTime, valid_from: '2026-01-01' }, (await createEmployee(t.ctx, s.tenant)).id);
      // A change is checked too, against every other assignment but itself.
      expect((await call('PATCH', one(next), s.admin.token, { valid_from: '2026-06-01' })).statusCode).toBe(422);
      const moved = await call('PATCH', one(next), s.admin.token, { valid_from: '2026-08-01', valid_until: '2026-12-31' });
      expect(moved.json().data).toMatchObject({ valid_from: '2026-08-01', valid_until: '2026-12-31', work_shift: { id: partTime } });
      // A deleted assignment frees its days; restoring it is refused once they are taken.
      expect((await call('DELETE', one(existing), s.admin.token)).statusCode).toBe(204);
      const filler = await assign({ work_shift_id: partTime, valid_from: '2026-02-01', valid_until: '2026-02-28' }, e.id);
      const restore = await call('POST', `${one(existing)}/restore`, s.admin.token);
      expect(restore.statusCode).toBe(422);
      expect(restore.json().errors.valid_from[0]).toContain(filler);
      await call('DELETE', one(filler), s.admin.token);
      expect((await call('POST', `${one(existing)}/restore`, s.admin.token)).statusCode).toBe(200);
    });

    it('validates the body (422)', async () => {
      const foreign = await createWorkforceTenant(t.ctx);
      const foreignShift = await createShift(foreign, { name: 'Theirs' });
      const retired = await createShift(s, { name: 'Retired' });
      await call('DELETE', `/${s.tenant.pbxId}/work-shifts/${retired}`, s.admin.token);
      const e = await createEmployee(t.ctx, s.tenant);
      for (const [body, fields] of [
        [{ valid_from: '2026-01-01' }, ['work_shift_id']],
        [{ work_shift_id: fullTime }, ['valid_from']],
        [{ work_shift_id: 'nope', valid_from: '2026-01-01' }, ['work_shift_id']],
        [{ work_shift_id: foreignShift, valid_from: '2026-01-01' }, ['work_shift_id']],
        [{ work_shift_id: retired, valid_from: '2026-01-01' }, ['work_shift_id']],
        [{ work_shift_id: fullTime, valid_from: '2026-01-01T08:00:00Z' }, ['valid_from']],
        [{ work_shift_id: fullTime, valid_from: '2026-02-01', valid_until: '2026-01-31' }, ['valid_until']],
        [{ work_shift_id: fullTime, valid_from: '2026-01-01', employee_id: e.id }, ['employee_id']],
      ] as const) {
        const response = await call('POST', assignments(e.id), s.admin.token, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(422);
        expect(response.json(), JSON.stringify(body)).toEqual({ message: expect.any(String), errors: expect.any(Object) });
        expect(Object.keys(response.json().errors), JSON.stringify(body)).toEqual(fields);
      }
    });

    it('the employee reads its own; administrators and the PBX key any; writes are theirs only', async () => {
      const byAdmin = await call('GET', assignments(), s.admin.token);
      expect(byAdmin.statusCode).toBe(200);
      const id: string = byAdmin.json().data[0].id;
      expect((await call('GET', assignments(), s.pbxKey)).statusCode).toBe(200);
      expect((await call('GET', assignments(), s.colleague.token)).statusCode).toBe(403);
      expect((await call('GET', assignments(), s.outsider.token)).statusCode).toBe(403);
      expect((await call('GET', assignments('00000000-0000-4000-8000-000000000000'), s.admin.token)).json()).toEqual({ message: ['Employee not found.'] });
      expect((await call('GET', `${assignments()}?filter[trashed]=with`, s.worker.token)).statusCode).toBe(403);
      expect((await call('GET', one(id), s.admin.token)).json().data.id).toBe(id);
      for (const [method, url, body] of [
        ['POST', assignments(), { work_shift_id: fullTime, valid_from: '2031-01-01' }],
        ['GET', one(id), undefined],
        ['PATCH', one(id), { valid_until: '2030-12-31' }],
        ['DELETE', one(id), undefined],
        ['POST', `${one(id)}/restore`, undefined],
      ] as const) {
        expect((await call(method, url, s.worker.token, body)).statusCode, `${method} ${url}`).toBe(403);
        expect((await t.app.inject({ method, url: `/api/v1${url}` })).statusCode).toBe(401);
      }
      const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
      expect((await call('GET', assignments(), stranger.token)).statusCode).toBe(403);
      expect((await call('GET', `/${stranger.pbxId}/user/${s.employee.id}/work-shift-assignments`, stranger.token)).statusCode).toBe(404);
      expect((await call('GET', `/${stranger.pbxId}/work-shift-assignments/${id}`, stranger.token)).json()).toEqual({
        message: ['Work shift assignment not found.'],
      });
      expect((await call('DELETE', `/${stranger.pbxId}/work-shift-assignments/${id}`, stranger.token)).statusCode).toBe(404);
    });
  });
});
