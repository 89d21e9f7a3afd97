import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createExtension, createSipDevice, createTenant, createUser } from '../../../../test/factories.js';

describe('phone buttons', () => {
  const t = useTestApp();

  const call = apiCaller(() => t);

  it('programs keys within the model and previews every key by position', async () => {
    const user = await createUser(t.ctx);
    await createExtension(t.ctx, user.tenant, { number: '210' });
    const device = await createSipDevice(t.ctx, user.tenant, { user_id: user.id, model: 'yealink-t33g' });
    const blf = await call('POST', `/users/${user.id}/phone-buttons`, user.token, {
      sip_device_id: device.id,
      position: 2,
      type: 'blf',
      value: '210',
      label: 'Anna',
    });
    expect(blf.statusCode).toBe(201);
    await call('POST', `/users/${user.id}/phone-buttons`, user.token, { sip_device_id: device.id, position: 1, type: 'line' });
    const preview = await call('GET', `/users/${user.id}/phone-buttons/preview-config`, user.token);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({
      data: {
        model: 'yealink-t33g',
        total_buttons: 4,
        buttons: [
          { position: 1, type: 'line', value: null, label: null },
          { position: 2, type: 'blf', value: '210', label: 'Anna' },
          { position: 3, type: 'none', value: null, label: null },
          { position: 4, type: 'none', value: null, label: null },
        ],
      },
    });
    const moved = await call('PATCH', `/users/${user.id}/phone-buttons/${blf.json().data.id}`, user.token, { position: 4 });
    expect(moved.json().data).toMatchObject({ position: 4, type: 'blf', value: '210' });
    expect((await call('DELETE', `/users/${user.id}/phone-buttons/${blf.json().data.id}`, user.token)).statusCode).toBe(204);
    expect((await call('GET', `/users/${user.id}/phone-buttons`, user.token)).json().data).toHaveLength(1);
    const none = await createUser(t.ctx);
    expect((await call('GET', `/users/${none.id}/phone-buttons/preview-config`, none.token)).json()).toEqual({
      data: { model: null, total_buttons: 0, buttons: [] },
    });
  });

  it('validates position, value and uniqueness per device (422)', async () => {
    const user = await createUser(t.ctx);
    const device = await createSipDevice(t.ctx, user.tenant, { user_id: user.id, model: 'yealink-t33g' });
    const base = { sip_device_id: device.id };
    expect((await call('POST', `/users/${user.id}/phone-buttons`, user.token, { ...base, position: 5, type: 'line' })).json().errors).toHaveProperty(
      'position',
    );
    expect((await call('POST', `/users/${user.id}/phone-buttons`, user.token, { ...base, position: 1, type: 'blf' })).json().errors).toHaveProperty('value');
    expect(
      (await call('POST', `/users/${user.id}/phone-buttons`, user.token, { ...base, position: 1, type: 'blf', value: '999' })).json().errors,
    ).toHaveProperty('value');
    expect(
      (await call('POST', `/users/${user.id}/phone-buttons`, user.token, { ...base, position: 1, type: 'speed_dial', value: '+352691000000' })).statusCode,
    ).toBe(201);
    const taken = await call('POST', `/users/${user.id}/phone-buttons`, user.token, { ...base, position: 1, type: 'dnd' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors).toEqual({ position: ['This position is already programmed on the device.'] });
    const otherDevice = await createSipDevice(t.ctx, user.tenant, { user_id: null });
    expect(
      (await call('POST', `/users/${user.id}/phone-buttons`, user.token, { sip_device_id: otherDevice.id, position: 1, type: 'dnd' })).json().errors,
    ).toHaveProperty('sip_device_id');
  });

  it("GET one key: the list's item as {data}; unknown or another user's key 404, a colleague 403, another tenant 404", async () => {
    const tenant = await createTenant(t.ctx);
    const owner = await createUser(t.ctx, { tenant });
    const colleague = await createUser(t.ctx, { tenant });
    const admin = await createAdmin(t.ctx, tenant);
    await createExtension(t.ctx, tenant, { number: '211' });
    const device = await createSipDevice(t.ctx, tenant, { user_id: owner.id, model: 'yealink-t33g' });
    const created = await call('POST', `/users/${owner.id}/phone-buttons`, owner.token, {
      sip_device_id: device.id,
      position: 3,
      type: 'blf',
      value: '211',
      label: 'Ben',
    });
    const id = created.json().data.id;
    const read = await call('GET', `/users/${owner.id}/phone-buttons/${id}`, owner.token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ data: created.json().data });
    expect(read.json().data).toMatchObject({ id, position: 3, type: 'blf', value: '211', label: 'Ben' });
    expect(read.json().data).toEqual((await call('GET', `/users/${owner.id}/phone-buttons`, owner.token)).json().data[0]);
    expect((await call('GET', `/users/${owner.id}/phone-buttons/${id}`, admin.token)).statusCode).toBe(200);
    expect((await call('GET', `/users/${owner.id}/phone-buttons/${crypto.randomUUID()}`, owner.token)).statusCode).toBe(404);
    // The key exists, but under its owner's path only.
    expect((await call('GET', `/users/${colleague.id}/phone-buttons/${id}`, colleague.token)).statusCode).toBe(404);
    expect((await call('GET', `/users/${owner.id}/phone-buttons/${id}`, colleague.token)).statusCode).toBe(403);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', `/users/${owner.id}/phone-buttons/${id}`, stranger.token)).statusCode).toBe(404);
    // The static preview route still wins over the item's.
    expect((await call('GET', `/users/${owner.id}/phone-buttons/preview-config`, owner.token)).json().data.model).toBe('yealink-t33g');
  });

  it('another user is 403, another tenant 404', async () => {
    const tenant = await createTenant(t.ctx);
    const owner = await createUser(t.ctx, { tenant });
    const colleague = await createUser(t.ctx, { tenant });
    const device = await createSipDevice(t.ctx, tenant, { user_id: owner.id });
    const id = (await call('POST', `/users/${owner.id}/phone-buttons`, owner.token, { sip_device_id: device.id, position: 1, type: 'line' })).json().data.id;
    expect((await call('GET', `/users/${owner.id}/phone-buttons/preview-config`, colleague.token)).statusCode).toBe(403);
    expect((await call('DELETE', `/users/${owner.id}/phone-buttons/${id}`, colleague.token)).statusCode).toBe(403);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', `/users/${owner.id}/phone-buttons/preview-config`, stranger.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/users/${owner.id}/phone-buttons/${id}`, stranger.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/users/${colleague.id}/phone-buttons/${id}`, colleague.token)).statusCode).toBe(404);
  });
});
