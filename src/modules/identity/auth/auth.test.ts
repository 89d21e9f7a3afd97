import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { scryptSync } from 'node:crypto';
import { bearer, buildTestApp, type TestApp, useTestApp } from '../../../../test/helpers.js';
import { createKey, createUser } from '../../../../test/factories.js';

const login = (t: TestApp, email: string, password: string, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/v1/login', payload: { email, password }, remoteAddress: ip });

describe('password login, logout and tokens', () => {
  const t = useTestApp({ config: { loginAttemptsPerWindow: 3, loginWindowSeconds: 60 } });

  it('logs in, answers /me, and logs out (the token stops working)', async () => {
    const user = await createUser(t.ctx);
    const response = await login(t, user.email.toUpperCase(), user.password);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({ message: expect.any(String), data: { token: expect.stringMatching(/^pbxu_[0-9A-Za-z]{36}$/) } });
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(body.data.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ id: user.id, email: user.email, access_token: null, extensions: [] });
    expect(me.json().data).not.toHaveProperty('password_hash');
    const flat = await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(body.data.token) });
    expect(Object.keys(flat.json()).sort()).toEqual(['created_at', 'email', 'first_name', 'id', 'last_name', 'pbx_id', 'status', 'updated_at']);
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/logout', headers: bearer(body.data.token) });
    expect(out.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(body.data.token) })).statusCode).toBe(401);
  });

  it('accepts a password hashed with scrypt before argon2id, and replaces that hash on the first successful login only', async () => {
    const user = await createUser(t.ctx);
    const salt = Buffer.alloc(16, 3);
    const legacy = `scrypt$16384$8$1$${salt.toString('base64')}$${scryptSync(user.password, salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64')}`;
    await t.ctx.db.updateTable('users').set({ password_hash: legacy }).where('id', '=', user.id).execute();
    const stored = () => t.ctx.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect((await login(t, user.email, 'not-the-password', '10.0.0.9')).statusCode).toBe(401);
    expect((await stored()).password_hash).toBe(legacy);
    expect((await login(t, user.email, user.password, '10.0.0.9')).statusCode).toBe(200);
    expect((await stored()).password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // The new hash verifies the same password.
    expect((await login(t, user.email, user.password, '10.0.0.9')).statusCode).toBe(200);
  });

  it('401 {error} for a wrong password or unknown e-mail, 403 for a disabled account, 422 for bad input', async () => {
    const user = await createUser(t.ctx);
    const wrong = await login(t, user.email, 'not-the-password', '10.0.0.2');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'These credentials do not match our records.' });
    expect((await login(t, 'nobody@example.test', 'whatever', '10.0.0.2')).statusCode).toBe(401);
    const disabled = await createUser(t.ctx, { fields: { status: 'disabled' } });
    const refused = await login(t, disabled.email, disabled.password, '10.0.0.3');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'This user account is disabled.' });
    const invalid = await t.app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: 'not-an-email' } });
    expect(invalid.statusCode).toBe(422);
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['email', 'password']);
  });

  it('expired tokens and tokens of a disabled user give 401', async () => {
    const user = await createUser(t.ctx);
    t.clock.advance(3601); // the factory issues one-hour tokens
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(user.token) })).statusCode).toBe(401);
    const other = await createUser(t.ctx);
    await t.ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', other.id).execute();
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(other.token) })).statusCode).toBe(401);
  });

  it('/me and /user need a user token: API keys get 403', async () => {
    const user = await createUser(t.ctx);
    for (const kind of ['pbx', 'pbx_server'] as const) {
      const key = await createKey(t.ctx, user.tenant, kind);
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(key) })).statusCode).toBe(403);
    }
  });

  it('throttles guessing per e-mail with 429 and Retry-After', async () => {
    const user = await createUser(t.ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await login(t, user.email, `guess-${i}`, `10.1.0.${i}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const blocked = await login(t, user.email, user.password, '10.1.0.9');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(61);
    expect((await login(t, user.email, user.password, '10.1.0.9')).statusCode).toBe(200);
  });

  it('counts failed logins only: signing in often never locks the account', async () => {
    const user = await createUser(t.ctx);
    for (let i = 0; i < 8; i++) expect((await login(t, user.email, user.password, '10.2.0.1')).statusCode).toBe(200);
    expect((await login(t, user.email, 'a-typo', '10.2.0.1')).statusCode).toBe(401);
    expect((await login(t, user.email, user.password, '10.2.0.1')).statusCode).toBe(200);
  });
});

describe('magic links and one-time codes, delivered over real SMTP', () => {
  let t: TestApp;
  let smtp: SMTPServer;
  const inbox: Array<{ to: string; raw: string }> = [];
  // Bodies arrive quoted-printable: undo soft line breaks and =XX escapes before reading them.
  const decode = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const lastMailTo = (to: string) => decode([...inbox].reverse().find((m) => m.to === to)?.raw ?? '');
  /** The `count`-th e-mail to `to`, once it has arrived: e-mails leave after the answer. */
  const mailTo = async (to: string, count = 1) => {
    await expect.poll(() => inbox.filter((m) => m.to === to).length, { timeout: 5_000, interval: 10 }).toBeGreaterThanOrEqual(count);
    return decode(inbox.filter((m) => m.to === to)[count - 1].raw);
  };

  beforeAll(async () => {
    smtp = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          for (const rcpt of session.envelope.rcptTo) inbox.push({ to: rcpt.address, raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    const { createMailer } = await import('../../../platform/mail/mailer.js');
    t = await buildTestApp({
      mailer: createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'PBX <no-reply@pbx.test>', outboxDir: '/tmp/unused' }),
      config: { passwordlessMaxAttempts: 3 },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('a magic link logs in once, then 401; an unknown link is 404', async () => {
    const user = await createUser(t.ctx);
    const request = await t.app.inject({ method: 'POST', url: '/api/v1/magic-link', payload: { email: user.email } });
    expect(request.statusCode).toBe(200);
    const token = /magic-login\/([A-Za-z0-9_-]+)/.exec(await mailTo(user.email))?.[1];
    expect(token).toBeDefined();
    const first = await t.app.inject({ method: 'GET', url: `/api/v1/magic-login/${token}` });
    expect(first.statusCode).toBe(200);
    expect(first.json().data.token).toMatch(/^pbxu_/);
    const again = await t.app.inject({ method: 'GET', url: `/api/v1/magic-login/${token}` });
    expect(again.statusCode).toBe(401);
    const unknown = await t.app.inject({ method: 'GET', url: `/api/v1/magic-login/${'x'.repeat(43)}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toEqual([expect.any(String)]);
  });

  it('a magic link expires', async () => {
    const user = await createUser(t.ctx);
    await t.app.inject({ method: 'POST', url: '/api/v1/magic-link', payload: { email: user.email } });
    const token = /magic-login\/([A-Za-z0-9_-]+)/.exec(await mailTo(user.email))?.[1];
    t.clock.advance(t.ctx.config.magicLinkTtlSeconds + 1);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/magic-login/${token}` })).statusCode).toBe(401);
  });

  it('does not reveal whether an address has an account when asked for a link', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/magic-link', payload: { email: 'ghost@example.test' } });
    expect(response.statusCode).toBe(200);
    const user = await createUser(t.ctx);
    const known = await t.app.inject({ method: 'POST', url: '/api/v1/magic-link', payload: { email: user.email } });
    expect(known.json()).toEqual(response.json());
    await mailTo(user.email);
    expect(lastMailTo('ghost@example.test')).toBe('');
  });

  it('one-time code: sent, verified once, limited attempts, resend cooldown', async () => {
    const user = await createUser(t.ctx);
    const sent = await t.app.inject({ method: 'POST', url: '/api/v1/passwordless/login', payload: { email: user.email } });
    expect(sent.json()).toEqual({ success: true, expires_in: t.ctx.config.passwordlessCodeTtlSeconds });
    const code = /login code: (\d{6})/.exec(await mailTo(user.email))?.[1];
    expect(code).toMatch(/^\d{6}$/);

    const cooldown = await t.app.inject({ method: 'POST', url: '/api/v1/passwordless/resend', payload: { email: user.email } });
    expect(cooldown.statusCode).toBe(429);
    expect(Number(cooldown.headers['retry-after'])).toBeGreaterThan(0);

    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await t.app.inject({ method: 'POST', url: '/api/v1/passwordless/verify', payload: { email: user.email, code: wrongCode } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toHaveProperty('error');
    const ok = await t.app.inject({ method: 'POST', url: '/api/v1/passwordless/verify', payload: { email: user.email, code } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.token).toMatch(/^pbxu_/);
    const reused = await t.app.inject({ method: 'POST', url: '/api/v1/passwordless/verify', payload: { email: user.email, code } });
    expect(reused.statusCode).toBe(401);

    t.clock.advance(t.ctx.config.passwordlessResendCooldownSeconds + 1);
    const resent = await t.app.inject({ method: 'POST', url: '/api/v1/passwordless/resend', payload: { email: user.email } });
    expect(resent.statusCode).toBe(200);
    const second = /login code: (\d{6})/.exec(await mailTo(user.email, 2))![1];
    // After the maximum of failed attempts even the right code is refused.
    const bad = second === '000000' ? '111111' : '000000';
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'POST', url: '/api/v1/passwordless/verify', payload: { email: user.email, code: bad } });
    const locked = await t.app.inject({ method: 'POST', url: '/api/v1/passwordless/verify', payload: { email: user.email, code: second } });
    expect(locked.statusCode).toBe(401);
  });

  it('an expired code is refused; unknown and disabled accounts get no code', async () => {
    const user = await createUser(t.ctx);
    await t.app.inject({ method: 'POST', url: '/api/v1/passwordless/login', payload: { email: user.email } });
    const code = /login code: (\d{6})/.exec(await mailTo(user.email))?.[1];
    t.clock.advance(t.ctx.config.passwordlessCodeTtlSeconds + 1);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/passwordless/verify', payload: { email: user.email, code } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/passwordless/login', payload: { email: 'ghost@example.test' } })).statusCode).toBe(200);
    const disabled = await createUser(t.ctx, { fields: { status: 'disabled' } });
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/passwordless/login', payload: { email: disabled.email } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/passwordless/verify', payload: { email: user.email } })).statusCode).toBe(422);
    expect(lastMailTo('ghost@example.test') + lastMailTo(disabled.email)).toBe('');
  });
});

describe('asking for a link or a code tells nobody whether an address has an account', () => {
  const t = useTestApp();

  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload });
  /** An active account, a disabled one and an address without one. */
  const addresses = async () => [
    (await createUser(t.ctx)).email,
    (await createUser(t.ctx, { fields: { status: 'disabled' } })).email,
    `ghost-${Math.random().toString(36).slice(2)}@example.test`,
  ];
  const answer = (response: { statusCode: number; body: string; headers: Record<string, unknown> }) => ({
    status: response.statusCode,
    body: response.body,
    retryAfter: response.headers['retry-after'],
  });

  it('POST /passwordless/login: 200 and the same body for each, a code only for the active account', async () => {
    const [active, disabled, unknown] = await addresses();
    const answers = [];
    for (const email of [active, disabled, unknown]) answers.push(answer(await post('/passwordless/login', { email })));
    expect(answers[0]).toEqual({
      status: 200,
      body: JSON.stringify({ success: true, expires_in: t.ctx.config.passwordlessCodeTtlSeconds }),
      retryAfter: undefined,
    });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(t.mailer.sent.map((mail) => mail.to).filter((to) => [active, disabled, unknown].includes(to))).toEqual([active]);
  });

  it('POST /passwordless/resend: the same cooldown (429 and Retry-After) and the same 200 after it, account or not', async () => {
    const emails = await addresses();
    const fresh = [];
    for (const email of emails) fresh.push(answer(await post('/passwordless/resend', { email })));
    expect(fresh.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(fresh.map((a) => JSON.stringify(a))).size).toBe(1);

    t.clock.advance(t.ctx.config.passwordlessResendCooldownSeconds + 1);
    for (const email of emails) expect((await post('/passwordless/login', { email })).statusCode).toBe(200);
    t.clock.advance(10);
    const waiting = [];
    for (const email of emails) waiting.push(answer(await post('/passwordless/resend', { email })));
    expect(waiting[0].status).toBe(429);
    expect(Number(waiting[0].retryAfter)).toBeGreaterThan(0);
    expect(waiting[1]).toEqual(waiting[0]);
    expect(waiting[2]).toEqual(waiting[0]);

    t.clock.advance(t.ctx.config.passwordlessResendCooldownSeconds);
    const after = [];
    for (const email of emails) after.push(answer(await post('/passwordless/resend', { email })));
    expect(after.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(after[1]).toEqual(after[0]);
    expect(after[2]).toEqual(after[0]);
  });

  it('POST /passwordless/verify: 401 without a valid code, disabled or not; 403 only past a valid code', async () => {
    const [active, disabled, unknown] = await addresses();
    const answers = [];
    for (const email of [active, disabled, unknown]) answers.push(answer(await post('/passwordless/verify', { email, code: '123456' })));
    expect(answers[0]).toEqual({ status: 401, body: JSON.stringify({ error: 'The code is invalid or has expired.' }), retryAfter: undefined });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);

    const user = await createUser(t.ctx);
    await post('/passwordless/login', { email: user.email });
    const code = /login code: (\d{6})/.exec(t.mailer.last(user.email)!.subject)![1];
    await t.ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', user.id).execute();
    const refused = await post('/passwordless/verify', { email: user.email, code });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'This user account is disabled.' });
  });

  it('an e-mail that cannot be sent changes no answer', async () => {
    const failing = await buildTestApp({
      mailer: {
        send: () => Promise.reject(new Error('SMTP server unreachable')),
        close: () => undefined,
      },
    });
    try {
      const user = await createUser(failing.ctx);
      for (const url of ['/api/v1/passwordless/login', '/api/v1/magic-link']) {
        const known = await failing.app.inject({ method: 'POST', url, payload: { email: user.email } });
        const unknown = await failing.app.inject({ method: 'POST', url, payload: { email: 'nobody-at-all@example.test' } });
        expect(known.statusCode, url).toBe(200);
        expect(known.body, url).toBe(unknown.body);
      }
    } finally {
      await failing.close();
    }
  });
});
