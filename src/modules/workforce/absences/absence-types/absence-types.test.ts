import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../platform/clock.js';
import { apiCaller, useTestApp } from '../../../../../test/helpers.js';
import { createWorkforceTenant, type WorkforceSetup } from '../../../../../test/workforce-factories.js';

const NOW = '2026-03-15T09:00:00.000Z';

describe('absence types', () => {
  const t = useTestApp({ clock: new ManualClock(NOW), env: { RATE_LIMIT_PER_MINUTE: '10000', JOB_WORKER: 'false' } });
  const call = apiCaller(() => t);
  const types = (s: WorkforceSetup) => `/${s.tenant.pbxId}/absence-types`;
  const create = async (s: WorkforceSetup, body: Record<string, unknown>, token = s.admin.token) => {
    const response = await call('POST', types(s), token, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ data: { id: string } & Record<string, unknown> }>().data;
  };

  it('administrators and the PBX key create, change, delete and restore; every user of the PBX reads', async () => {
    const s = await createWorkforceTenant(t.ctx);
    const created = await create(s, { name: 'Annual leave', type: 'legal' });
    expect(created).toEqual({
      id: expect.any(String),
      pbx_id: s.tenant.pbxId,
      name: 'Annual leave',
      type: 'legal',
      created_at: NOW,
      updated_at: NOW,
      deleted_at: null,
    });
    expect((await call('GET', `${types(s)}/${created.id}`, s.worker.token)).json().data).toEqual(created);
    expect((await call('GET', `${types(s)}/${created.id}`, s.pbxKey)).statusCode).toBe(200);
    expect((await call('POST', types(s), s.worker.token, { name: 'Sick leave', type: 'illness' })).statusCode).toBe(403);
    expect((await call('PATCH', `${types(s)}/${created.id}`, s.worker.token, { name: 'Leave' })).statusCode).toBe(403);

    const changed = await call('PATCH', `${types(s)}/${created.id}`, s.pbxKey, { name: 'Paid leave' });
    expect(changed.json().data).toMatchObject({ name: 'Paid leave', type: 'legal' });
    expect((await call('DELETE', `${types(s)}/${created.id}`, s.admin.token)).statusCode).toBe(204);
    expect((await call('GET', `${types(s)}/${created.id}`, s.admin.token)).statusCode).toBe(404);
    expect((await call('GET', `${types(s)}?filter[trashed]=only`, s.worker.token)).statusCode).toBe(403);
    const trashed = await call('GET', `${types(s)}?filter[trashed]=only`, s.admin.token);
    expect(trashed.json().data).toEqual([expect.objectContaining({ id: created.id, deleted_at: NOW })]);
    const restored = await call('POST', `${types(s)}/${created.id}/restore`, s.pbxKey);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data.deleted_at).toBeNull();
  });

  it('lists with perPage, search, filter[type] and sort by name', async () => {
    const s = await createWorkforceTenant(t.ctx);
    for (const [name, type] of [
      ['Sick leave', 'illness'],
      ['Annual leave', 'legal'],
      ['Home office', 'home_office'],
      ['Special leave', 'special'],
    ])
      await create(s, { name, type });
    const names = async (query: string) => (await call('GET', `${types(s)}?${query}`, s.worker.token)).json().data.map((row: { name: string }) => row.name);
    expect(await names('')).toEqual(['Annual leave', 'Home office', 'Sick leave', 'Special leave']);
    expect(await names('sort=-name&search=leave')).toEqual(['Special leave', 'Sick leave', 'Annual leave']);
    expect(await names('filter[type]=home_office')).toEqual(['Home office']);
    expect((await call('GET', `${types(s)}?perPage=3&page=2`, s.worker.token)).json().meta).toMatchObject({ total: 4, per_page: 3, current_page: 2 });
    expect((await call('GET', `${types(s)}?filter[type]=holiday`, s.worker.token)).statusCode).toBe(422);
  });

  it('validates the name (1-64, unique among live types) and the type (422)', async () => {
    const s = await createWorkforceTenant(t.ctx);
    const first = await create(s, { name: 'Annual leave', type: 'legal' });
    for (const [body, field] of [
      [{ type: 'legal' }, 'name'],
      [{ name: '', type: 'legal' }, 'name'],
      [{ name: 'x'.repeat(65), type: 'legal' }, 'name'],
      [{ name: 'Leave' }, 'type'],
      [{ name: 'Leave', type: 'absence' }, 'type'],
      [{ name: 'Leave', type: 'legal', pbx_id: s.tenant.pbxId }, 'pbx_id'],
      [{ name: 'Annual leave', type: 'special' }, 'name'],
    ] as const) {
      const response = await call('POST', types(s), s.admin.token, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual([field]);
    }
    // A deleted type frees its name; restoring it while a live one holds the name is 422.
    await call('DELETE', `${types(s)}/${first.id}`, s.admin.token);
    await create(s, { name: 'Annual leave', type: 'legal' });
    const restore = await call('POST', `${types(s)}/${first.id}/restore`, s.admin.token);
    expect(restore.statusCode).toBe(422);
    expect(Object.keys(restore.json().errors)).toEqual(['name']);
    // Another PBX may use the same name.
    await create(await createWorkforceTenant(t.ctx), { name: 'Annual leave', type: 'legal' });
  });

  it("another tenant's type is 404; another PBX in the path is 403", async () => {
    const s = await createWorkforceTenant(t.ctx);
    const other = await createWorkforceTenant(t.ctx);
    const created = await create(s, { name: 'Annual leave', type: 'legal' });
    expect((await call('GET', `${types(other)}/${created.id}`, other.admin.token)).statusCode).toBe(404);
    expect((await call('PATCH', `${types(other)}/${created.id}`, other.pbxKey, { name: 'Mine' })).statusCode).toBe(404);
    expect((await call('DELETE', `${types(other)}/${created.id}`, other.pbxKey)).statusCode).toBe(404);
    expect((await call('GET', `${types(s)}/${created.id}`, other.admin.token)).statusCode).toBe(403);
  });
});
