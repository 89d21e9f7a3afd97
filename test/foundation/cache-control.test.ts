import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, useTestApp } from '../helpers.js';
import { createAdmin, createKey, createUser, type TestUser } from '../factories.js';

describe('Cache-Control: no-store', () => {
  let admin: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    admin = await createAdmin(t.ctx);
  });

  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });

  it('on every answer that carries a token: password, magic-link and one-time-code sign-in', async () => {
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const login = await inject('POST', '/login', undefined, { email: user.email, password: user.password });
    expect(login.json().data.token).toMatch(/^pbxu_/);

    await inject('POST', '/magic-link', undefined, { email: user.email });
    const link = /magic-login\/([A-Za-z0-9_-]+)/.exec(t.mailer.last(user.email)?.text ?? '')?.[1];
    const magic = await inject('GET', `/magic-login/${link}`);
    expect(magic.json().data.token).toMatch(/^pbxu_/);

    await inject('POST', '/passwordless/login', undefined, { email: user.email });
    const code = /(\d{6})/.exec(t.mailer.last(user.email)?.text ?? '')?.[1];
    const verified = await inject('POST', '/passwordless/verify', undefined, { email: user.email, code });
    expect(verified.json().data.token).toMatch(/^pbxu_/);

    // A refused sign-in is not stored either (set before the route answers).
    const refused = await inject('POST', '/login', undefined, { email: user.email, password: 'not-the-password' });
    expect(refused.statusCode).toBe(401);
    for (const response of [login, magic, verified, refused]) expect(response.headers['cache-control'], response.body).toBe('no-store');
  });

  it('on every answer that carries a secret: API keys, the signing secret, SIP device and WebRTC credentials', async () => {
    const created = await inject('POST', '/integrations/api-keys', admin.token, { name: 'CRM', scopes: ['contacts'] });
    expect(created.statusCode).toBe(201);
    const revealed = await inject('POST', `/integrations/api-keys/${created.json().data.id}/reveal`, admin.token);
    expect(revealed.json().data.token).toBe(created.json().data.token);
    const secret = await inject('GET', '/webhooks/signing-secret', admin.token);
    const rotated = await inject('POST', '/webhooks/signing-secret/rotate', admin.token, {});
    const device = await inject('POST', '/sip-devices', admin.token, { name: 'Desk phone' });
    expect(device.json().data.secret).toEqual(expect.any(String));

    const member = await createUser(t.ctx, { tenant: admin.tenant });
    await inject('PUT', `/users/${member.id}/webrtc-account`, admin.token, {
      hostname: 'webrtc.pbx.example',
      port: 8089,
      username: 'member_webrtc',
      password: 'sup3r-secret-pw',
      voicemail_pin: '4321',
    });
    const webrtc = await t.app.inject({
      url: `/api/v1/users/${encodeURIComponent(member.email)}/webrtc`,
      headers: bearer(await createKey(t.ctx, admin.tenant, 'internal')),
    });
    expect(webrtc.json().password).toBe('sup3r-secret-pw');

    for (const response of [created, revealed, secret, rotated, device, webrtc]) {
      expect(response.statusCode, response.body).toBeLessThan(300);
      expect(response.headers['cache-control'], response.body).toBe('no-store');
    }
  });

  it('on every answer of a route that needs credentials (private data), refusals included', async () => {
    const answers = [await inject('GET', '/me', admin.token), await inject('GET', '/contacts', admin.token), await inject('GET', '/me')];
    expect(answers.map((response) => response.statusCode)).toEqual([200, 200, 401]);
    for (const response of answers) expect(response.headers['cache-control']).toBe('no-store');
  });

  it('not on public documents and answers that carry nothing secret', async () => {
    const user = await createUser(t.ctx);
    const answers = [
      await inject('GET', '/openapi.json'),
      await t.app.inject('/health'),
      await inject('POST', '/magic-link', undefined, { email: user.email }),
      await inject('POST', '/passwordless/login', undefined, { email: user.email }),
    ];
    for (const response of answers) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBeUndefined();
    }
  });
});
