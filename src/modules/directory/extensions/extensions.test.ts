import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createExtension, createKey, createSipDevice, createTenant, createUser } from '../../../../test/factories.js';

describe('extensions', () => {
  const t = useTestApp();

  const call = apiCaller(() => t);

  it('an administrator manages extensions; numbers are unique per PBX (422), not across PBXs', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const created = await call('POST', '/extensions', admin.token, { number: '201', name: 'Reception', user_id: user.id });
    expect(created.statusCode).toBe(201);
    const ext = created.json().data;
    expect(ext).toMatchObject({
      number: '201',
      name: 'Reception',
      user_id: user.id,
      voicemail_enabled: true,
      voip_id: 1,
      is_favorite: false,
      deleted_at: null,
    });
    const dup = await call('POST', '/extensions', admin.token, { number: '201' });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors).toEqual({ number: ['The number has already been taken in this PBX.'] });
    const elsewhere = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('POST', '/extensions', elsewhere.token, { number: '201' })).statusCode).toBe(201);

    const second = (await call('POST', '/extensions', admin.token, { number: '202', name: 'Sales' })).json().data;
    expect(second.voip_id).toBe(2);
    const patched = await call('PATCH', `/extensions/${second.id}`, admin.token, { number: '201' });
    expect(patched.statusCode).toBe(422);
    const list = await call('GET', `/extensions?search=recep&include=user&filter[user_id]=${user.id}`, admin.token);
    expect(list.json().data).toEqual([
      expect.objectContaining({ id: ext.id, user: { id: user.id, first_name: 'Test', last_name: expect.any(String), email: user.email } }),
    ]);
    const sorted = await call('GET', '/extensions?sort=-number', admin.token);
    expect(sorted.json().data.map((e: { number: string }) => e.number)).toEqual(['202', '201']);
  });

  it('soft deletes and restores; favourites are per user and omitted for API keys', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const ext = (await call('POST', '/extensions', admin.token, { number: '300' })).json().data;
    expect((await call('PUT', `/extensions/${ext.id}/favorite`, user.token)).statusCode).toBe(204);
    expect((await call('GET', `/extensions/${ext.id}`, user.token)).json().data.is_favorite).toBe(true);
    expect((await call('GET', `/extensions/${ext.id}`, admin.token)).json().data.is_favorite).toBe(false);
    const pbxKey = await createKey(t.ctx, admin.tenant, 'pbx');
    expect((await call('GET', `/extensions/${ext.id}`, pbxKey)).json().data).not.toHaveProperty('is_favorite');
    expect((await call('DELETE', `/extensions/${ext.id}/favorite`, user.token)).statusCode).toBe(204);
    expect((await call('GET', `/extensions/${ext.id}`, user.token)).json().data.is_favorite).toBe(false);

    expect((await call('DELETE', `/extensions/${ext.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `/extensions/${ext.id}`, admin.token)).statusCode).toBe(404);
    expect((await call('GET', '/extensions?filter[trashed]=only', admin.token)).json().data).toHaveLength(1);
    const restored = await call('POST', `/extensions/${ext.id}/restore`, admin.token);
    expect(restored.json().data).toMatchObject({ id: ext.id, deleted_at: null });
  });

  it('validates (422), refuses users managing extensions (403) and other tenants (404)', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const invalid = await call('POST', '/extensions', admin.token, { number: '12a', extra: 1 });
    expect(invalid.statusCode).toBe(422);
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['extra', 'number']);
    const foreignUser = await createUser(t.ctx);
    const foreign = await call('POST', '/extensions', admin.token, { number: '555', user_id: foreignUser.id });
    expect(foreign.json().errors).toEqual({ user_id: ['The selected user id is invalid.'] });
    expect((await call('POST', '/extensions', user.token, { number: '556' })).statusCode).toBe(403);
    const ext = (await call('POST', '/extensions', admin.token, { number: '557', user_id: user.id })).json().data;
    const colleague = await createUser(t.ctx, { tenant: admin.tenant });
    expect((await call('GET', `/users/${user.id}/extensions`, colleague.token)).statusCode).toBe(403);
    expect((await call('GET', `/users/${user.id}/extensions`, user.token)).json().data.map((e: { id: string }) => e.id)).toEqual([ext.id]);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    for (const [method, url] of [
      ['GET', `/extensions/${ext.id}`],
      ['PATCH', `/extensions/${ext.id}`],
      ['DELETE', `/extensions/${ext.id}`],
      ['PUT', `/extensions/${ext.id}/favorite`],
    ] as const) {
      const response = await call(method, url, stranger.token, method === 'PATCH' ? { name: 'x' } : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
  });

  it('embeds nested relations: include=user.groups,sipDevice (one level down, same allow-list rules)', async () => {
    const admin = await createAdmin(t.ctx);
    const owner = await createUser(t.ctx, { tenant: admin.tenant });
    const ext = await createExtension(t.ctx, admin.tenant, { number: '401', user_id: owner.id });
    const lonely = await createExtension(t.ctx, admin.tenant, { number: '402' });
    const device = await createSipDevice(t.ctx, admin.tenant, { user_id: owner.id, extension_id: ext.id });
    const group = await call('POST', `/users/${owner.id}/user-groups`, admin.token, { name: 'Night shift' });
    expect(group.statusCode).toBe(201);

    const list = await call('GET', '/extensions?include=user.groups,sipDevice&sort=number', admin.token);
    expect(list.statusCode, list.body).toBe(200);
    const [withOwner, withoutOwner] = list.json().data;
    expect(withOwner).toMatchObject({
      id: ext.id,
      user: { id: owner.id, email: owner.email, groups: [{ id: group.json().data.id, name: 'Night shift' }] },
      sipDevice: { id: device.id, extension_id: ext.id },
    });
    expect(withoutOwner).toMatchObject({ id: lonely.id, user: null, sipDevice: null });

    const userOnly = (await call('GET', `/extensions/${ext.id}?include=user`, admin.token)).json().data;
    expect(userOnly.user).toEqual({ id: owner.id, first_name: 'Test', last_name: expect.any(String), email: owner.email });
    expect(userOnly).not.toHaveProperty('sipDevice');
    const plain = (await call('GET', `/extensions/${ext.id}`, admin.token)).json().data;
    expect(plain).not.toHaveProperty('user');

    for (const include of ['user.extensions', 'sipDevice.user', 'groups']) {
      const refused = await call('GET', `/extensions?include=${include}`, admin.token);
      expect(refused.statusCode, include).toBe(422);
      expect(refused.json().errors.include[0]).toContain('Allowed: user, user.groups, sipDevice');
    }
  });
});
