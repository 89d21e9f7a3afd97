import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createCallerIdentity, createExtension, createKey, createSipDevice, createTenant, createUser } from '../../../../test/factories.js';

describe('users', () => {
  const t = useTestApp();

  const call = apiCaller(() => t);

  it('an administrator creates, lists, reads and edits users with every flag', async () => {
    const admin = await createAdmin(t.ctx);
    const created = await call('POST', '/users', admin.token, {
      email: 'New.Person@Example.test',
      first_name: 'New',
      last_name: 'Person',
      password: 'long-enough-1',
      allow_dnd: false,
      extension_roaming: true,
      voicemail_type: 'internal',
    });
    expect(created.statusCode).toBe(201);
    const user = created.json().data;
    expect(user).toMatchObject({
      email: 'new.person@example.test',
      role: 'user',
      status: 'active',
      allow_dnd: false,
      extension_roaming: true,
      voicemail_type: 'internal',
      allow_telephony: true,
      deleted_at: null,
    });
    expect(user).not.toHaveProperty('password');
    expect(user).not.toHaveProperty('password_hash');

    const login = await t.app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: 'new.person@example.test', password: 'long-enough-1' } });
    expect(login.statusCode).toBe(200);

    const list = await call('GET', '/users?search=person&sort=email&perPage=10', admin.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((u: { id: string }) => u.id)).toEqual([user.id]);
    expect(list.json().meta).toMatchObject({ total: 1, per_page: 10 });

    const patched = await call('PATCH', `/users/${user.id}`, admin.token, { allow_call_forwarding: false, concurrent_calls: 3 });
    expect(patched.json().data).toMatchObject({ allow_call_forwarding: false, concurrent_calls: 3, allow_dnd: false, first_name: 'New' });
  });

  it('embeds extensions, SIP devices, twinnings, groups and caller identities on request', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const extension = await createExtension(t.ctx, admin.tenant, { number: '301', user_id: user.id });
    const device = await createSipDevice(t.ctx, admin.tenant, { user_id: user.id });
    const { identity } = await createCallerIdentity(t.ctx, admin.tenant, { user_id: user.id });
    const plain = await call('GET', `/users/${user.id}`, admin.token);
    expect(plain.json().data).not.toHaveProperty('extensions');
    const full = await call('GET', `/users/${user.id}?include=extensions,sipDevices,twinnings,groups,callerIdentities`, admin.token);
    expect(full.statusCode).toBe(200);
    const data = full.json().data;
    expect(data.extensions.map((e: { id: string }) => e.id)).toEqual([extension.id]);
    expect(data.sipDevices.map((d: { id: string }) => d.id)).toEqual([device.id]);
    expect(data.callerIdentities.map((c: { id: string }) => c.id)).toEqual([identity.id]);
    expect(data.twinnings).toEqual([]);
    expect(data.groups).toEqual([]);
    const bad = await call('GET', `/users/${user.id}?include=secrets`, admin.token);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('include');
  });

  it('disabling a user revokes its tokens; deleting is soft and restorable', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    expect((await call('GET', '/me', user.token)).statusCode).toBe(200);
    expect((await call('PATCH', `/users/${user.id}`, admin.token, { status: 'disabled' })).statusCode).toBe(200);
    expect((await call('GET', '/me', user.token)).statusCode).toBe(401);

    expect((await call('DELETE', `/users/${user.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `/users/${user.id}`, admin.token)).statusCode).toBe(404);
    const trashed = await call('GET', '/users?filter[trashed]=only', admin.token);
    expect(trashed.json().data.map((u: { id: string }) => u.id)).toEqual([user.id]);
    const restored = await call('POST', `/users/${user.id}/restore`, admin.token);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ id: user.id, deleted_at: null });
    expect((await call('POST', `/users/${user.id}/restore`, admin.token)).statusCode).toBe(404);
  });

  it('validates with 422 keyed by field, including a taken e-mail', async () => {
    const admin = await createAdmin(t.ctx);
    const missing = await call('POST', '/users', admin.token, { email: 'not-an-email', role: 'root', allow_dnd: 'yes' });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(expect.arrayContaining(['email', 'first_name', 'role', 'allow_dnd']));
    const other = await createUser(t.ctx);
    const taken = await call('POST', '/users', admin.token, { email: other.email, first_name: 'Dup' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors).toEqual({ email: ['The email has already been taken.'] });
    const unknown = await call('PATCH', `/users/${admin.id}`, admin.token, { pbx_id: admin.pbxId });
    expect(unknown.statusCode).toBe(422);
  });

  it('a user reads itself only (403 for others), never manages users; another tenant is 404', async () => {
    const tenant = await createTenant(t.ctx);
    const user = await createUser(t.ctx, { tenant });
    const colleague = await createUser(t.ctx, { tenant });
    expect((await call('GET', `/users/${user.id}`, user.token)).statusCode).toBe(200);
    expect((await call('GET', `/users/${colleague.id}`, user.token)).statusCode).toBe(403);
    expect((await call('GET', '/users', user.token)).statusCode).toBe(403);
    expect((await call('PATCH', `/users/${user.id}`, user.token, { allow_dnd: true })).statusCode).toBe(403);
    const pbxKey = await createKey(t.ctx, tenant, 'pbx');
    expect((await call('GET', `/users/${colleague.id}`, pbxKey)).statusCode).toBe(200);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    for (const [method, url] of [
      ['GET', `/users/${user.id}`],
      ['PATCH', `/users/${user.id}`],
      ['DELETE', `/users/${user.id}`],
    ] as const) {
      const response = await call(method, url, stranger.token, method === 'PATCH' ? { vip: true } : undefined);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: ['User not found.'] });
    }
  });

  it('GET /me returns the directory arrays of the user', async () => {
    const tenant = await createTenant(t.ctx);
    const user = await createUser(t.ctx, { tenant });
    const extension = await createExtension(t.ctx, tenant, { number: '401', user_id: user.id });
    const device = await createSipDevice(t.ctx, tenant, { user_id: user.id });
    const { identity } = await createCallerIdentity(t.ctx, tenant);
    const twinning = (await call('POST', `/users/${user.id}/twinnings`, user.token, { phone_number: '+352691000123' })).json().data;
    const group = (await call('POST', `/users/${user.id}/user-groups`, user.token, { name: 'Team' })).json().data;
    const me = await call('GET', '/me', user.token);
    expect(me.statusCode).toBe(200);
    const data = me.json().data;
    expect(data.extensions).toEqual([expect.objectContaining({ id: extension.id, number: '401' })]);
    expect(data.sipDevices).toEqual([expect.objectContaining({ id: device.id, username: device.username })]);
    expect(data.sipDevices[0]).not.toHaveProperty('secret_sealed');
    expect(data.twinnings).toEqual([expect.objectContaining({ id: twinning.id, phone_number: '+352691000123' })]);
    expect(data.groups).toEqual([expect.objectContaining({ id: group.id, name: 'Team', users: [] })]);
    expect(data.caller_identities).toEqual([expect.objectContaining({ id: identity.id })]);
    expect(data.webrtc_configuration).toBeNull();
  });
});
