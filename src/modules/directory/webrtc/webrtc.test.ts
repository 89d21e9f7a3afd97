import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp, apiCaller } from '../../../../test/helpers.js';
import { createAdmin, createCallerIdentity, createKey, createTenant, createUser } from '../../../../test/factories.js';

describe('WebRTC configuration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const call = apiCaller(() => t);

  it('stores the secrets encrypted and serves them by e-mail to the internal key only', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, {
      tenant: admin.tenant,
      fields: { allow_dnd: 0, voicemail_type: 'internal', voicemail_destination: 'email_and_phone', call_information_visibility: 'own_group_only' },
    });
    const { identity, number } = await createCallerIdentity(t.ctx, admin.tenant, { user_id: user.id });
    const saved = await call('PUT', `/users/${user.id}/webrtc-account`, admin.token, {
      hostname: 'webrtc.pbx.example',
      port: 8089,
      username: 'alice_webrtc',
      password: 'sup3r-secret-pw',
      voicemail_pin: '4321',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).not.toHaveProperty('password');
    expect(saved.json().data).not.toHaveProperty('voicemail_pin');
    expect(saved.body).not.toContain('sup3r-secret-pw');

    const stored = await t.ctx.db.selectFrom('webrtc_configurations').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(stored.password_sealed).not.toContain('sup3r-secret-pw');
    expect(stored.voicemail_pin_sealed).not.toContain('4321');

    const internal = await createKey(t.ctx, admin.tenant, 'internal');
    const byEmail = await t.app.inject({
      method: 'GET',
      url: `/api/v1/users/${encodeURIComponent(user.email.toUpperCase())}/webrtc`,
      headers: { authorization: internal },
    });
    expect(byEmail.statusCode).toBe(200);
    expect(byEmail.json()).toEqual({
      hostname: 'webrtc.pbx.example',
      port: 8089,
      username: 'alice_webrtc',
      password: 'sup3r-secret-pw',
      caller_identities: [{ id: identity.voip_id, root_phone_nuber_id: number.voip_id, external_caller_extension: '', external_caller_number: number.number }],
      allow_anonymous_calls: false,
      allow_call_forwarding: true,
      allow_change_twinning_dest: true,
      allow_dnd: false,
      allow_status_changer: true,
      call_information_visibility: 'own_group_only',
      call_pickpup_restrictions: 'yes',
      voicemail: true,
      voicemail_destination: 'email_and_phone',
      voicemail_pin: '4321',
      voicemail_type: 'internal',
    });

    const me = await call('GET', '/me', user.token);
    expect(me.json().data.webrtc_configuration).toMatchObject({ hostname: 'webrtc.pbx.example', username: 'alice_webrtc' });
    expect(me.json().data.webrtc_configuration).not.toHaveProperty('password');
  });

  it('refuses every other principal on the by-email read, and unknown e-mails are 404', async () => {
    const admin = await createAdmin(t.ctx);
    await call('PUT', `/users/${admin.id}/webrtc-account`, admin.token, { hostname: 'webrtc.pbx.example', port: 8089, password: 'another-secret' });
    expect((await call('GET', `/users/${admin.email}/webrtc`, admin.token)).statusCode).toBe(403);
    expect((await call('GET', `/users/${admin.email}/webrtc`, await createKey(t.ctx, admin.tenant, 'pbx'))).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/users/${admin.email}/webrtc` })).statusCode).toBe(401);
    const internal = await createKey(t.ctx, admin.tenant, 'internal');
    const unknown = await t.app.inject({ method: 'GET', url: '/api/v1/users/nobody@example.test/webrtc', headers: bearer(internal) });
    expect(unknown.statusCode).toBe(404);
    const invalid = await t.app.inject({ method: 'GET', url: '/api/v1/users/not-an-email/webrtc', headers: bearer(internal) });
    expect(invalid.statusCode).toBe(422);
  });

  it('validates the account (422); only administrators manage it (403); another tenant is 404', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const invalid = await call('PUT', `/users/${user.id}/webrtc-account`, admin.token, {
      hostname: 'webrtc.pbx.example',
      port: 70000,
      password: 'short',
      voicemail_pin: 'abcd',
    });
    expect(invalid.statusCode).toBe(422);
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['password', 'port', 'voicemail_pin']);
    expect((await call('PUT', `/users/${user.id}/webrtc-account`, user.token, { hostname: 'h.example', port: 1, password: 'long-enough' })).statusCode).toBe(
      403,
    );
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect(
      (await call('PUT', `/users/${user.id}/webrtc-account`, stranger.token, { hostname: 'h.example', port: 1, password: 'long-enough' })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/users/${user.id}/webrtc-account`, admin.token)).statusCode).toBe(404);
  });
});
