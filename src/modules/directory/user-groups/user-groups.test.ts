import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createTenant, createUser } from '../../../../test/factories.js';

describe('user groups', () => {
  const t = useTestApp();

  const call = apiCaller(() => t);
  const names = async (token: string) =>
    (await call('GET', '/user-groups?sort=position', token)).json().data.map((g: { name: string; position: number }) => `${g.position}:${g.name}`);

  it('creates, reorders by position, sets members and deletes, keeping positions 1..n', async () => {
    const user = await createUser(t.ctx);
    const colleague = await createUser(t.ctx, { tenant: user.tenant });
    const ids: string[] = [];
    for (const name of ['Sales', 'Support', 'Boss']) {
      const created = await call('POST', `/users/${user.id}/user-groups`, user.token, { name });
      expect(created.statusCode).toBe(201);
      ids.push(created.json().data.id);
    }
    expect(await names(user.token)).toEqual(['1:Sales', '2:Support', '3:Boss']);
    const moved = await call('PATCH', `/users/${user.id}/user-groups/${ids[2]}`, user.token, { position: 1 });
    expect(moved.json().data).toEqual({ id: ids[2], name: 'Boss', user_id: user.id, position: 1, users: [] });
    expect(await names(user.token)).toEqual(['1:Boss', '2:Sales', '3:Support']);
    await call('PATCH', `/users/${user.id}/user-groups/${ids[2]}`, user.token, { position: 3 });
    expect(await names(user.token)).toEqual(['1:Sales', '2:Support', '3:Boss']);

    const members = await call('PUT', `/users/${user.id}/user-groups/${ids[0]}/users`, user.token, { users: [colleague.id] });
    expect(members.json().data.users).toEqual([colleague.id]);
    const withUsers = await call('GET', '/user-groups?include=users&perPage=2', user.token);
    expect(withUsers.json().data[0]).toEqual({ id: ids[0], name: 'Sales', user_id: user.id, position: 1, users: [colleague.id] });
    expect(withUsers.json().meta).toMatchObject({ total: 3, per_page: 2, last_page: 2 });
    expect((await call('GET', '/user-groups', user.token)).json().data[0]).not.toHaveProperty('users');

    expect((await call('DELETE', `/users/${user.id}/user-groups/${ids[0]}`, user.token)).statusCode).toBe(204);
    expect(await names(user.token)).toEqual(['1:Support', '2:Boss']);
    expect((await call('DELETE', `/users/${user.id}/user-groups/${ids[0]}`, user.token)).statusCode).toBe(404);
  });

  it('validates names, positions and members (422)', async () => {
    const user = await createUser(t.ctx);
    await call('POST', `/users/${user.id}/user-groups`, user.token, { name: 'Team' });
    const dup = await call('POST', `/users/${user.id}/user-groups`, user.token, { name: 'Team' });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors).toHaveProperty('name');
    const invalid = await call('POST', `/users/${user.id}/user-groups`, user.token, { name: '', position: 0 });
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['name', 'position']);
    const foreigner = await createUser(t.ctx);
    const members = await call('POST', `/users/${user.id}/user-groups`, user.token, { name: 'Mixed', users: [foreigner.id] });
    expect(members.statusCode).toBe(422);
    expect(members.json().errors).toEqual({ 'users.0': ['The selected user is invalid.'] });
  });

  it('a user sees only its own groups; another user is 403, another tenant 404', async () => {
    const tenant = await createTenant(t.ctx);
    const owner = await createUser(t.ctx, { tenant });
    const colleague = await createUser(t.ctx, { tenant });
    const admin = await createAdmin(t.ctx, tenant);
    const id = (await call('POST', `/users/${owner.id}/user-groups`, owner.token, { name: 'Mine' })).json().data.id;
    expect((await call('GET', '/user-groups', colleague.token)).json().data).toEqual([]);
    expect((await call('GET', `/user-groups?filter[user_id]=${owner.id}`, admin.token)).json().data.map((g: { id: string }) => g.id)).toEqual([id]);
    expect((await call('DELETE', `/users/${owner.id}/user-groups/${id}`, colleague.token)).statusCode).toBe(403);
    expect((await call('POST', `/users/${owner.id}/user-groups`, colleague.token, { name: 'Hijack' })).statusCode).toBe(403);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('DELETE', `/users/${owner.id}/user-groups/${id}`, stranger.token)).statusCode).toBe(404);
    expect((await call('GET', '/user-groups', stranger.token)).json().data).toEqual([]);
  });
});
