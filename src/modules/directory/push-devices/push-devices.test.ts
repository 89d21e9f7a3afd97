import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createKey, createUser } from '../../../../test/factories.js';

describe('push devices', () => {
  const t = useTestApp();

  const call = apiCaller(() => t);

  it('registers, lists with type/active filters as {message, devices, total}, deactivates and deletes', async () => {
    const user = await createUser(t.ctx);
    const twinning = (await call('POST', `/users/${user.id}/twinnings`, user.token, { phone_number: '+352691000777' })).json().data;
    const ios = await call('POST', '/user/devices', user.token, { type: 'ios', token: 'apns-token-0001', name: 'iPhone', twinning_id: twinning.id });
    expect(ios.statusCode).toBe(201);
    expect(ios.json()).toEqual({
      message: expect.any(String),
      device: expect.objectContaining({ type: 'ios', token: 'apns-token-0001', is_active: true, user_id: user.id, twinning_id: twinning.id }),
    });
    const android = (await call('POST', '/user/devices', user.token, { type: 'android', token: 'fcm-token-0002' })).json().device;

    const all = await call('GET', '/user/devices', user.token);
    expect(all.json()).toMatchObject({ message: expect.any(String), total: 2 });
    expect(all.json().devices).toHaveLength(2);
    const onlyIos = await call('GET', '/user/devices?type=ios', user.token);
    expect(onlyIos.json().devices.map((d: { type: string }) => d.type)).toEqual(['ios']);

    const off = await call('POST', `/user/devices/${android.id}/deactivate`, user.token);
    expect(off.json().device.is_active).toBe(false);
    expect((await call('GET', '/user/devices?active=true', user.token)).json()).toMatchObject({ total: 1 });
    expect((await call('GET', '/user/devices?active=false&perPage=1', user.token)).json().devices[0].id).toBe(android.id);
    // Registering the same token again reactivates the same device.
    const again = await call('POST', '/user/devices', user.token, { type: 'android', token: 'fcm-token-0002' });
    expect(again.json().device).toMatchObject({ id: android.id, is_active: true });

    expect((await call('DELETE', `/user/devices/${android.id}`, user.token)).statusCode).toBe(204);
    expect((await call('GET', '/user/devices', user.token)).json().total).toBe(1);
  });

  it("GET one device: {message, device} as the writes answer; unknown, another user's and another tenant's 404, API keys 403", async () => {
    const user = await createUser(t.ctx);
    const registered = await call('POST', '/user/devices', user.token, { type: 'ios', token: 'apns-token-0101', name: 'iPad' });
    const id = registered.json().device.id;
    const read = await call('GET', `/user/devices/${id}`, user.token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ message: 'Device retrieved successfully.', device: registered.json().device });
    expect(read.json().device).toMatchObject({ id, type: 'ios', token: 'apns-token-0101', name: 'iPad', is_active: true, user_id: user.id });
    expect(read.json().device).toEqual((await call('GET', '/user/devices', user.token)).json().devices[0]);
    await call('POST', `/user/devices/${id}/deactivate`, user.token);
    expect((await call('GET', `/user/devices/${id}`, user.token)).json().device.is_active).toBe(false);
    expect((await call('GET', `/user/devices/${crypto.randomUUID()}`, user.token)).statusCode).toBe(404);
    const colleague = await createUser(t.ctx, { tenant: user.tenant });
    expect((await call('GET', `/user/devices/${id}`, colleague.token)).statusCode).toBe(404);
    const stranger = await createUser(t.ctx);
    expect((await call('GET', `/user/devices/${id}`, stranger.token)).statusCode).toBe(404);
    expect((await call('GET', `/user/devices/${id}`, await createKey(t.ctx, user.tenant, 'pbx'))).statusCode).toBe(403);
  });

  it('validates (422), keeps devices to their owner (404) and refuses API keys (403)', async () => {
    const user = await createUser(t.ctx);
    const invalid = await call('POST', '/user/devices', user.token, { type: 'pager', token: 'x', user_id: user.id });
    expect(invalid.statusCode).toBe(422);
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['token', 'type', 'user_id']);
    const badFilter = await call('GET', '/user/devices?active=maybe', user.token);
    expect(badFilter.statusCode).toBe(422);
    const other = await createUser(t.ctx);
    const foreignTwinning = (await call('POST', `/users/${other.id}/twinnings`, other.token, { phone_number: '+352691000778' })).json().data;
    const badTwinning = await call('POST', '/user/devices', user.token, { type: 'ios', token: 'apns-token-0003', twinning_id: foreignTwinning.id });
    expect(badTwinning.json().errors).toHaveProperty('twinning_id');
    const mine = (await call('POST', '/user/devices', user.token, { type: 'web', token: 'web-push-0004' })).json().device;
    const colleague = await createUser(t.ctx, { tenant: user.tenant });
    expect((await call('POST', `/user/devices/${mine.id}/deactivate`, colleague.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/user/devices/${mine.id}`, other.token)).statusCode).toBe(404);
    expect((await call('GET', '/user/devices', colleague.token)).json().total).toBe(0);
    expect((await call('GET', '/user/devices', await createKey(t.ctx, user.tenant, 'pbx'))).statusCode).toBe(403);
  });
});
