import { describe, expect, it } from 'vitest';
import { bearer, apiCaller, TEST_BASE_URL, useTestApp } from '../../../../test/helpers.js';
import { openTestDatabase } from '../../../../test/database.js';
import { buildApp } from '../../../app.js';
import { loadConfig } from '../../../config.js';
import { createApiKey } from '../../../platform/auth/api-keys.js';
import { createAdmin, createCallerIdentity, createKey, createTenant, createUser } from '../../../../test/factories.js';

describe('WebRTC configuration', () => {
  const t = useTestApp();

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

  it("an internal key reads its own PBX only: another tenant's user is 404, as an unknown address is", async () => {
    const admin = await createAdmin(t.ctx);
    await call('PUT', `/users/${admin.id}/webrtc-account`, admin.token, {
      hostname: 'webrtc.pbx.example',
      port: 8089,
      password: 'tenant-a-secret',
      voicemail_pin: '1234',
    });
    const strangersKey = await createKey(t.ctx, await createTenant(t.ctx), 'internal');
    const read = (email: string) =>
      t.app.inject({ method: 'GET', url: `/api/v1/users/${encodeURIComponent(email)}/webrtc`, headers: { authorization: strangersKey } });
    const crossing = await read(admin.email);
    const unknown = await read('nobody-here@example.test');
    expect(crossing.statusCode).toBe(404);
    expect(crossing.json()).toEqual(unknown.json());
    expect(crossing.body).not.toContain('tenant-a-secret');
    const own = await createKey(t.ctx, admin.tenant, 'internal');
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/users/${admin.email}/webrtc`, headers: { authorization: own } })).json().password).toBe(
      'tenant-a-secret',
    );
  });

  it('an operator-wide internal key reads every PBX, and each use is logged with its id, never its token', async () => {
    const lines: string[] = [];
    const database = await openTestDatabase();
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', BASE_URL: TEST_BASE_URL, DATA_DIR: '/tmp/pbx-api-test', JOB_WORKER: 'false', AMI_EVENTS: 'false' }),
      database,
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      await app.ready();
      const admin = await createAdmin(app.ctx);
      const save = { hostname: 'webrtc.pbx.example', port: 8089, password: 'operator-visible' };
      await app.inject({ method: 'PUT', url: `/api/v1/users/${admin.id}/webrtc-account`, headers: bearer(admin.token), payload: save });
      const { row, token } = await createApiKey(app.ctx.db, app.ctx.clock, app.ctx.secrets, {
        pbxId: null,
        kind: 'internal',
        name: 'WebRTC gateway',
        operatorWide: true,
      });
      expect(row.name).toBe('[operator-wide] WebRTC gateway');
      const read = await app.inject({ method: 'GET', url: `/api/v1/users/${admin.email}/webrtc`, headers: { authorization: token } });
      expect(read.statusCode).toBe(200);
      expect(read.json().password).toBe('operator-visible');
      const used = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === 'operator-wide internal API key used');
      expect(used).toEqual([expect.objectContaining({ level: 30, api_key_id: row.id, method: 'GET', route: '/api/v1/users/:email/webrtc' })]);
      expect(lines.join('\n')).not.toContain(token);
      // A key bound to a PBX is not logged so.
      await app.inject({
        method: 'GET',
        url: `/api/v1/users/${admin.email}/webrtc`,
        headers: { authorization: await createKey(app.ctx, admin.tenant, 'internal') },
      });
      expect(lines.filter((line) => line.includes('operator-wide internal API key used'))).toHaveLength(1);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it("GET the account: the PUT's summary as {data}, no secret; without an account 404; the user itself 403, another tenant 404", async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    expect((await call('GET', `/users/${user.id}/webrtc-account`, admin.token)).statusCode).toBe(404);
    const saved = await call('PUT', `/users/${user.id}/webrtc-account`, admin.token, {
      hostname: 'webrtc.pbx.example',
      port: 8089,
      password: 'read-me-never-pw',
      voicemail_pin: '97531',
    });
    expect(saved.statusCode).toBe(200);
    const read = await call('GET', `/users/${user.id}/webrtc-account`, admin.token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ data: saved.json().data });
    expect(read.json().data).toMatchObject({ hostname: 'webrtc.pbx.example', port: 8089, username: `webrtc_${user.id.slice(0, 8)}` });
    expect(read.json().data).not.toHaveProperty('password');
    expect(read.json().data).not.toHaveProperty('voicemail_pin');
    expect(read.body).not.toContain('read-me-never-pw');
    expect(read.body).not.toContain('97531');
    expect((await call('GET', `/users/${user.id}/webrtc-account`, await createKey(t.ctx, admin.tenant, 'pbx'))).statusCode).toBe(200);
    expect((await call('GET', `/users/${crypto.randomUUID()}/webrtc-account`, admin.token)).statusCode).toBe(404);
    expect((await call('GET', `/users/${user.id}/webrtc-account`, user.token)).statusCode).toBe(403);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', `/users/${user.id}/webrtc-account`, stranger.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/users/${user.id}/webrtc-account`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `/users/${user.id}/webrtc-account`, admin.token)).statusCode).toBe(404);
  });

  it("a new password changes the account's ETag though the answer does not show it, so a stale If-Match is 412", async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const account = { hostname: 'webrtc.pbx.example', port: 8089, password: 'first-password-1' };
    const url = `/api/v1/users/${user.id}/webrtc-account`;
    expect((await call('PUT', `/users/${user.id}/webrtc-account`, admin.token, account)).statusCode).toBe(200);
    const first = await t.app.inject({ method: 'GET', url, headers: bearer(admin.token) });
    const second = { ...account, password: 'second-password-2' };
    const changed = await t.app.inject({ method: 'PUT', url, headers: { ...bearer(admin.token), 'if-match': first.headers.etag as string }, payload: second });
    expect(changed.statusCode).toBe(200);
    const now = await t.app.inject({ method: 'GET', url, headers: bearer(admin.token) });
    expect(now.body).toBe(first.body);
    expect(now.headers.etag).not.toBe(first.headers.etag);
    // Another administrator, who read the account before the change, would overwrite that password.
    const late = await t.app.inject({
      method: 'PUT',
      url,
      headers: { ...bearer(admin.token), 'if-match': first.headers.etag as string },
      payload: { ...account, password: 'third-password-3' },
    });
    expect(late.statusCode).toBe(412);
    expect(late.headers.etag).toBe(now.headers.etag);
    expect(late.headers.etag).not.toContain('second-password-2');
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
