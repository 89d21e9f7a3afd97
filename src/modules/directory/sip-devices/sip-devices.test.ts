import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createExtension, createKey, createTenant, createUser } from '../../../../test/factories.js';

describe('SIP devices and roaming', () => {
  const t = useTestApp();

  const call = apiCaller(() => t);

  it('creates a device with a sealed secret shown once; username and MAC are unique platform-wide', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const created = await call('POST', '/sip-devices', admin.token, {
      name: 'Desk',
      username: 'desk-0001',
      secret: 'a-very-long-sip-secret',
      mac_address: '80-5e-c0-12-34-56',
      model: 'yealink-t54w',
      user_id: user.id,
    });
    expect(created.statusCode).toBe(201);
    const device = created.json().data;
    expect(device).toMatchObject({
      username: 'desk-0001',
      secret: 'a-very-long-sip-secret',
      mac_address: '80:5E:C0:12:34:56',
      transport: 'udp',
      codecs: ['opus', 'g722', 'pcma'],
      enabled: true,
      roaming_extension_id: null,
    });
    const row = await t.ctx.db.selectFrom('sip_devices').select('secret_sealed').where('id', '=', device.id).executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain('a-very-long-sip-secret');
    expect(t.ctx.secrets.open(row.secret_sealed)).toBe('a-very-long-sip-secret');
    const read = await call('GET', `/sip-devices/${device.id}`, user.token);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).not.toHaveProperty('secret');

    const otherAdmin = await createAdmin(t.ctx, await createTenant(t.ctx));
    const sameUsername = await call('POST', '/sip-devices', otherAdmin.token, { name: 'X', username: 'desk-0001' });
    expect(sameUsername.json().errors).toEqual({ username: ['The username has already been taken.'] });
    const sameMac = await call('POST', '/sip-devices', otherAdmin.token, { name: 'X', mac_address: '805EC0123456' });
    expect(sameMac.json().errors).toEqual({ mac_address: ['The mac address has already been taken.'] });

    const list = await call('GET', `/sip-devices?search=desk&filter[user_id]=${user.id}`, admin.token);
    expect(list.json().data.map((d: { id: string }) => d.id)).toEqual([device.id]);
    const patched = await call('PATCH', `/sip-devices/${device.id}`, admin.token, { transport: 'tls', codecs: ['g722'] });
    expect(patched.json().data).toMatchObject({ transport: 'tls', codecs: ['g722'] });
    expect((await call('DELETE', `/sip-devices/${device.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('POST', `/sip-devices/${device.id}/restore`, admin.token)).json().data.deleted_at).toBeNull();
  });

  it('validates (422); users may not manage devices (403) nor read others\u2019 (403); other tenants 404', async () => {
    const admin = await createAdmin(t.ctx);
    const invalid = await call('POST', '/sip-devices', admin.token, { name: '', transport: 'carrier-pigeon', codecs: [], model: 'rotary', secret: 'short' });
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['codecs', 'model', 'name', 'secret', 'transport']);
    const owner = await createUser(t.ctx, { tenant: admin.tenant });
    const colleague = await createUser(t.ctx, { tenant: admin.tenant });
    const device = (await call('POST', '/sip-devices', admin.token, { name: 'Owned', user_id: owner.id })).json().data;
    expect((await call('POST', '/sip-devices', owner.token, { name: 'Mine' })).statusCode).toBe(403);
    expect((await call('GET', `/sip-devices/${device.id}`, colleague.token)).statusCode).toBe(403);
    expect((await call('GET', `/users/${owner.id}/sip-devices`, colleague.token)).statusCode).toBe(403);
    expect((await call('GET', `/users/${owner.id}/sip-devices`, owner.token)).json().data.map((d: { id: string }) => d.id)).toEqual([device.id]);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', `/sip-devices/${device.id}`, stranger.token)).statusCode).toBe(404);
    expect((await call('PATCH', `/sip-devices/${device.id}`, stranger.token, { name: 'x' })).statusCode).toBe(404);
  });

  it('roaming: the PBX key logs an extension in and out of a device, honouring extension_roaming', async () => {
    const tenant = await createTenant(t.ctx);
    const admin = await createAdmin(t.ctx, tenant);
    const rover = await createUser(t.ctx, { tenant, fields: { extension_roaming: 1 } });
    const homebody = await createUser(t.ctx, { tenant });
    await createExtension(t.ctx, tenant, { number: '710', user_id: rover.id });
    await createExtension(t.ctx, tenant, { number: '711', user_id: homebody.id });
    const desk = (await call('POST', '/sip-devices', admin.token, { name: 'Hot desk' })).json().data;
    const other = (await call('POST', '/sip-devices', admin.token, { name: 'Hot desk 2' })).json().data;
    const pbxKey = await createKey(t.ctx, tenant, 'pbx');

    const login = await call('POST', '/roaming/login', pbxKey, { sip_device_id: desk.id, extension: '710' });
    expect(login.statusCode).toBe(200);
    expect(login.json().data).toMatchObject({ id: desk.id, roaming_user_id: rover.id, roaming_since: expect.any(String) });
    // One phone at a time: logging in elsewhere frees the first desk.
    await call('POST', '/roaming/login', pbxKey, { sip_device_id: other.id, extension: '710' });
    expect((await call('GET', `/sip-devices/${desk.id}`, admin.token)).json().data.roaming_extension_id).toBeNull();

    expect((await call('POST', '/roaming/login', pbxKey, { sip_device_id: desk.id, extension: '711' })).statusCode).toBe(403);
    expect((await call('POST', '/roaming/login', pbxKey, { sip_device_id: desk.id, extension: '799' })).json().errors).toHaveProperty('extension');
    expect((await call('POST', '/roaming/login', pbxKey, { sip_device_id: desk.id })).json().errors).toHaveProperty('extension');
    const logout = await call('POST', '/roaming/logout', pbxKey, { sip_device_id: other.id });
    expect(logout.json().data).toMatchObject({ roaming_extension_id: null, roaming_user_id: null, roaming_since: null });
    expect((await call('POST', '/roaming/logout', pbxKey, { sip_device_id: other.id })).statusCode).toBe(422);

    expect((await call('POST', '/roaming/login', admin.token, { sip_device_id: desk.id, extension: '710' })).statusCode).toBe(403);
    const foreignKey = await createKey(t.ctx, await createTenant(t.ctx), 'pbx');
    expect((await call('POST', '/roaming/login', foreignKey, { sip_device_id: desk.id, extension: '710' })).json().errors).toHaveProperty('sip_device_id');
  });
});
