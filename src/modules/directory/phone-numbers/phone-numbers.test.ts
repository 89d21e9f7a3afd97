import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createExtension, createKey, createTenant, createUser } from '../../../../test/factories.js';

describe('phone numbers and caller identities', () => {
  const t = useTestApp();

  const call = apiCaller(() => t);

  it('stores numbers in E.164 with the PBX country, unique on the platform; the phone-numbers scope may manage them', async () => {
    const tenant = await createTenant(t.ctx, { countryCode: 'DE' });
    const admin = await createAdmin(t.ctx, tenant);
    const ext = await createExtension(t.ctx, tenant, { number: '100' });
    const created = await call('POST', '/phone-numbers', admin.token, {
      number: '030 7654321',
      label: 'Berlin',
      destination_type: 'extension',
      destination_id: ext.id,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ number: '+49307654321', label: 'Berlin', destination_type: 'extension', destination_id: ext.id, voip_id: 1 });
    const otherAdmin = await createAdmin(t.ctx, await createTenant(t.ctx));
    const taken = await call('POST', '/phone-numbers', otherAdmin.token, { number: '+49 30 7654321' });
    expect(taken.json().errors).toEqual({ number: ['The number has already been taken.'] });

    const integration = await createKey(t.ctx, tenant, 'integration', ['phone-numbers']);
    const byKey = await call('POST', '/phone-numbers', integration, { number: '030 7654322' });
    expect(byKey.statusCode).toBe(201);
    expect((await call('GET', '/phone-numbers?sort=-number', integration)).json().data.map((n: { number: string }) => n.number)).toEqual([
      '+49307654322',
      '+49307654321',
    ]);
    const wrongScope = await createKey(t.ctx, tenant, 'integration', ['call-history']);
    expect((await call('GET', '/phone-numbers', wrongScope)).statusCode).toBe(403);
    expect((await call('DELETE', `/phone-numbers/${byKey.json().data.id}`, integration)).statusCode).toBe(204);
    expect((await call('POST', `/phone-numbers/${byKey.json().data.id}/restore`, admin.token)).statusCode).toBe(200);
  });

  it('validates numbers and destinations (422); users cannot manage (403); other tenants 404', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    expect((await call('POST', '/phone-numbers', admin.token, { number: '12' })).json().errors).toHaveProperty('number');
    expect((await call('POST', '/phone-numbers', admin.token, { number: '27 12 99 01', destination_type: 'user' })).json().errors).toHaveProperty(
      'destination_id',
    );
    const foreigner = await createUser(t.ctx);
    expect(
      (await call('POST', '/phone-numbers', admin.token, { number: '27 12 99 01', destination_type: 'user', destination_id: foreigner.id })).json().errors,
    ).toHaveProperty('destination_id');
    expect((await call('POST', '/phone-numbers', user.token, { number: '27 12 99 02' })).statusCode).toBe(403);
    const own = (await call('POST', '/phone-numbers', admin.token, { number: '27 12 99 03', destination_type: 'user', destination_id: user.id })).json().data;
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', `/phone-numbers/${own.id}`, stranger.token)).statusCode).toBe(404);
    expect((await call('PATCH', `/phone-numbers/${own.id}`, stranger.token, { label: 'x' })).statusCode).toBe(404);
  });

  it('caller identities: shared or personal, a user sees only those it may present', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const colleague = await createUser(t.ctx, { tenant: admin.tenant });
    const root = (await call('POST', '/phone-numbers', admin.token, { number: '27 12 88 00' })).json().data;
    const shared = await call('POST', '/caller-identities', admin.token, { phone_number_id: root.id, name: 'Main', is_default: true });
    expect(shared.statusCode).toBe(201);
    expect(shared.json().data).toMatchObject({
      external_caller_number: '+35227128800',
      external_caller_extension: '',
      user_id: null,
      is_default: true,
      voip_id: 1,
    });
    const personal = (
      await call('POST', '/caller-identities', admin.token, { phone_number_id: root.id, name: 'Direct', external_caller_extension: '12', user_id: user.id })
    ).json().data;
    const mine = await call('GET', '/caller-identities?sort=name', user.token);
    expect(mine.json().data.map((c: { name: string }) => c.name)).toEqual(['Direct', 'Main']);
    expect((await call('GET', '/caller-identities', colleague.token)).json().data.map((c: { name: string }) => c.name)).toEqual(['Main']);
    expect((await call('GET', `/caller-identities/${personal.id}`, colleague.token)).statusCode).toBe(403);
    expect((await call('GET', `/users/${user.id}/caller-identities`, colleague.token)).statusCode).toBe(403);
    expect((await call('GET', `/users/${user.id}/caller-identities`, user.token)).json().data).toHaveLength(2);

    const invalid = await call('POST', '/caller-identities', admin.token, { phone_number_id: crypto.randomUUID(), name: '' });
    expect(Object.keys(invalid.json().errors)).toEqual(['name']);
    const unknownRoot = await call('POST', '/caller-identities', admin.token, { phone_number_id: crypto.randomUUID(), name: 'X' });
    expect(unknownRoot.json().errors).toHaveProperty('phone_number_id');
    expect((await call('POST', '/caller-identities', user.token, { phone_number_id: root.id, name: 'Mine' })).statusCode).toBe(403);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', `/caller-identities/${personal.id}`, stranger.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/caller-identities/${personal.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('POST', `/caller-identities/${personal.id}/restore`, admin.token)).statusCode).toBe(200);
  });
});
