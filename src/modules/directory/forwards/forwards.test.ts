import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createExtension, createTenant, createUser } from '../../../../test/factories.js';

describe('call forwards and user settings', () => {
  const t = useTestApp();

  const call = apiCaller(() => t);

  it('creates forwards to a number (E.164), an extension or voicemail; one per type', async () => {
    const user = await createUser(t.ctx);
    await createExtension(t.ctx, user.tenant, { number: '250' });
    const busy = await call('POST', `/users/${user.id}/forwards`, user.token, { type: 'busy', destination_type: 'number', destination: '691 123 456' });
    expect(busy.statusCode).toBe(201);
    expect(busy.json().data).toMatchObject({ type: 'busy', destination_type: 'number', destination: '+352691123456', delay: 0, enabled: true });
    const noAnswer = await call('POST', `/users/${user.id}/forwards`, user.token, { type: 'no_answer', destination_type: 'extension', destination: '250' });
    expect(noAnswer.json().data).toMatchObject({ destination: '250', delay: 20 });
    const dup = await call('POST', `/users/${user.id}/forwards`, user.token, { type: 'busy', destination_type: 'voicemail' });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors).toHaveProperty('type');
    const toVoicemail = await call('PATCH', `/users/${user.id}/forwards/${busy.json().data.id}`, user.token, {
      destination_type: 'voicemail',
      destination: null,
      enabled: false,
    });
    expect(toVoicemail.json().data).toMatchObject({ destination_type: 'voicemail', destination: null, enabled: false });
    expect((await call('GET', `/users/${user.id}/forwards?filter[enabled]=true`, user.token)).json().data).toHaveLength(1);
    expect((await call('DELETE', `/users/${user.id}/forwards/${busy.json().data.id}`, user.token)).statusCode).toBe(204);
    expect((await call('DELETE', `/users/${user.id}/forwards/${busy.json().data.id}`, user.token)).statusCode).toBe(404);
  });

  it('validates destinations (422) and enforces allow_call_forwarding (403)', async () => {
    const tenant = await createTenant(t.ctx);
    const user = await createUser(t.ctx, { tenant });
    const unknownExt = await call('POST', `/users/${user.id}/forwards`, user.token, { type: 'busy', destination_type: 'extension', destination: '999' });
    expect(unknownExt.json().errors).toHaveProperty('destination');
    const badType = await call('POST', `/users/${user.id}/forwards`, user.token, { type: 'sometimes', destination_type: 'number', delay: -1 });
    expect(Object.keys(badType.json().errors).sort()).toEqual(['delay', 'type']);
    const barred = await createUser(t.ctx, { tenant, fields: { allow_call_forwarding: 0 } });
    expect((await call('POST', `/users/${barred.id}/forwards`, barred.token, { type: 'busy', destination_type: 'voicemail' })).statusCode).toBe(403);
    const admin = await createAdmin(t.ctx, tenant);
    expect((await call('POST', `/users/${barred.id}/forwards`, admin.token, { type: 'busy', destination_type: 'voicemail' })).statusCode).toBe(201);
    expect((await call('GET', `/users/${barred.id}/forwards`, user.token)).statusCode).toBe(403);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', `/users/${barred.id}/forwards`, stranger.token)).statusCode).toBe(404);
  });

  it("GET one forward: the list's item as {data}, without allow_call_forwarding; unknown or another user's forward 404, a colleague 403, another tenant 404", async () => {
    const tenant = await createTenant(t.ctx);
    const owner = await createUser(t.ctx, { tenant, fields: { allow_call_forwarding: 0 } });
    const colleague = await createUser(t.ctx, { tenant });
    const admin = await createAdmin(t.ctx, tenant);
    const created = await call('POST', `/users/${owner.id}/forwards`, admin.token, { type: 'busy', destination_type: 'number', destination: '691 123 456' });
    const id = created.json().data.id;
    const read = await call('GET', `/users/${owner.id}/forwards/${id}`, owner.token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ data: created.json().data });
    expect(read.json().data).toMatchObject({ id, type: 'busy', destination_type: 'number', destination: '+352691123456', delay: 0, enabled: true });
    expect(read.json().data).toEqual((await call('GET', `/users/${owner.id}/forwards`, owner.token)).json().data[0]);
    expect((await call('GET', `/users/${owner.id}/forwards/${id}`, admin.token)).statusCode).toBe(200);
    expect((await call('GET', `/users/${owner.id}/forwards/${crypto.randomUUID()}`, owner.token)).statusCode).toBe(404);
    // The forward exists, but under its owner's path only.
    expect((await call('GET', `/users/${colleague.id}/forwards/${id}`, colleague.token)).statusCode).toBe(404);
    expect((await call('GET', `/users/${owner.id}/forwards/${id}`, colleague.token)).statusCode).toBe(403);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', `/users/${owner.id}/forwards/${id}`, stranger.token)).statusCode).toBe(404);
  });

  it('saves user settings as a JSON string, rejects a string that is not JSON, reads them back', async () => {
    const user = await createUser(t.ctx);
    const saved = await call('POST', `/users/${user.id}/user-settings`, user.token, { type: 'softphone', settings: '{"ringtone":"classic"}' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ data: { type: 'softphone', settings: '{"ringtone":"classic"}' } });
    await call('POST', `/users/${user.id}/user-settings`, user.token, { type: 'softphone', settings: '{"ringtone":"bell"}' });
    expect((await call('GET', `/users/${user.id}/user-settings/softphone`, user.token)).json()).toEqual({
      data: { type: 'softphone', settings: '{"ringtone":"bell"}' },
    });
    expect((await call('GET', `/users/${user.id}/user-settings`, user.token)).json().data).toHaveLength(1);
    const notJson = await call('POST', `/users/${user.id}/user-settings`, user.token, { type: 'softphone', settings: '{ringtone: bell' });
    expect(notJson.statusCode).toBe(422);
    expect(notJson.json().errors).toEqual({ settings: ['The settings field must be a valid JSON string.'] });
    const notString = await call('POST', `/users/${user.id}/user-settings`, user.token, { settings: { a: 1 } });
    expect(Object.keys(notString.json().errors).sort()).toEqual(['settings', 'type']);
    const colleague = await createUser(t.ctx, { tenant: user.tenant });
    expect((await call('POST', `/users/${user.id}/user-settings`, colleague.token, { type: 'x', settings: '{}' })).statusCode).toBe(403);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', `/users/${user.id}/user-settings`, stranger.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/users/${user.id}/user-settings/softphone`, user.token)).statusCode).toBe(204);
    expect((await call('GET', `/users/${user.id}/user-settings/softphone`, user.token)).statusCode).toBe(404);
  });
});
