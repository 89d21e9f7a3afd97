import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from '../../../../test/helpers.js';
import { createAdmin, createKey, createUser, type TestUser } from '../../../../test/factories.js';
import { loadConfig } from '../../../config.js';
import { rotateSigningSecret, signingSecretsOf } from '../../../platform/webhooks/signing-secrets.js';
import { enqueueWebhook } from '../../../platform/webhooks/webhooks.js';
import { seedIntegrations } from '../integrations.seed.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

const OVERLAP = 120;

describe('WEBHOOK_SECRET_OVERLAP_SECONDS', () => {
  it('defaults to 24 hours and is at most seven days', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).webhookSecretOverlapSeconds).toBe(86400);
    expect(loadConfig({ NODE_ENV: 'test', WEBHOOK_SECRET_OVERLAP_SECONDS: '0' }).webhookSecretOverlapSeconds).toBe(0);
    expect(() => loadConfig({ NODE_ENV: 'test', WEBHOOK_SECRET_OVERLAP_SECONDS: '604801' })).toThrow(/WEBHOOK_SECRET_OVERLAP_SECONDS must be at most 604800/);
    expect(() => loadConfig({ NODE_ENV: 'test', WEBHOOK_SECRET_OVERLAP_SECONDS: 'a day' })).toThrow(/WEBHOOK_SECRET_OVERLAP_SECONDS/);
  });
});

describe('webhook signing secret', () => {
  let t: TestApp;
  let server: Server;
  let url = '';
  const received: Received[] = [];
  let failNext = 0;

  beforeAll(async () => {
    // A two-minute window keeps every signature within the verifier's five-minute timestamp tolerance.
    t = await buildTestApp({ config: { jobWorkerEnabled: false, webhookAllowPrivate: true, webhookSecretOverlapSeconds: OVERLAP } });
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        if (failNext > 0) {
          failNext--;
          res.writeHead(500).end();
        } else res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const getSecret = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/webhooks/signing-secret', headers: bearer(token) });
  const rotate = (token: string, payload?: object) =>
    t.app.inject({ method: 'POST', url: '/api/v1/webhooks/signing-secret/rotate', headers: bearer(token), ...(payload ? { payload } : {}) });

  /** Queues a message for the admin's PBX and delivers what is due; answers what the receiver got for it. */
  async function deliver(admin: TestUser, event = 'test.ping'): Promise<Received> {
    const id = await enqueueWebhook(t.ctx.db, t.clock, {
      pbxId: admin.pbxId,
      userId: admin.id,
      event,
      subjectType: 'test',
      subjectId: admin.id,
      url,
      data: {},
    });
    await t.app.jobs.drain();
    return lastFor(id);
  }
  const lastFor = (id: string) => received.filter((r) => r.headers['webhook-id'] === id).at(-1)!;
  const verifies = (secret: string, message: Received) => {
    try {
      new Webhook(secret).verify(message.body, message.headers as Record<string, string>);
      return true;
    } catch {
      return false;
    }
  };

  it('is for the PBX administrators only, never cached', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    for (const token of [user.token, await createKey(t.ctx, admin.tenant, 'pbx'), await createKey(t.ctx, admin.tenant, 'integration', ['contacts'])]) {
      const read = await getSecret(token);
      expect(read.statusCode).toBe(403);
      expect(read.body).not.toContain('whsec_');
      expect((await rotate(token)).statusCode).toBe(403);
    }
    const read = await getSecret(admin.token);
    expect(read.statusCode).toBe(200);
    expect(read.headers['cache-control']).toBe('no-store');
    expect(read.json()).toEqual({
      data: { secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]{40,}$/), rotated_at: null, previous_secret_expires_at: null, overlap_seconds: OVERLAP },
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/webhooks/signing-secret' })).statusCode).toBe(401);
  });

  it("keeps each PBX's secret its own: another tenant's administrator neither sees nor rotates it", async () => {
    const admin = await createAdmin(t.ctx);
    const stranger = await createAdmin(t.ctx);
    const mine = (await getSecret(admin.token)).json().data.secret;
    const theirs = (await getSecret(stranger.token)).json().data.secret;
    expect(theirs).not.toBe(mine);
    expect((await rotate(stranger.token)).statusCode).toBe(200);
    expect((await getSecret(admin.token)).json().data).toMatchObject({ secret: mine, rotated_at: null });
    expect(verifies(mine, await deliver(admin))).toBe(true);
    const audit = await t.ctx.db.selectFrom('audit_events').select('pbx_id').where('user_id', '=', stranger.id).execute();
    expect(audit).toEqual([{ pbx_id: stranger.pbxId }]);
  });

  it('signs with the new and the previous secret during the overlap window, retries of older messages included, then with the new one only', async () => {
    const admin = await createAdmin(t.ctx);
    const old = (await getSecret(admin.token)).json().data.secret as string;

    // Before: one signature, with the secret receivers fetched.
    const before = await deliver(admin);
    expect(String(before.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(old, before)).toBe(true);
    // A message whose first attempt fails before the rotation and is retried during the window.
    failNext = 1;
    const pendingId = await enqueueWebhook(t.ctx.db, t.clock, {
      pbxId: admin.pbxId,
      userId: admin.id,
      event: 'test.retry',
      subjectType: 'test',
      subjectId: admin.id,
      url,
      data: {},
    });
    await t.app.jobs.drain();
    expect(verifies(old, lastFor(pendingId))).toBe(true);

    const rotatedAt = t.clock.now();
    const rotated = await rotate(admin.token);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.headers['cache-control']).toBe('no-store');
    const next = rotated.json().data.secret as string;
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(old);
    expect(rotated.json().data).toEqual({
      secret: next,
      rotated_at: rotatedAt.toISOString(),
      previous_secret_expires_at: new Date(rotatedAt.getTime() + OVERLAP * 1000).toISOString(),
      overlap_seconds: OVERLAP,
    });
    expect((await getSecret(admin.token)).json().data).toEqual(rotated.json().data);

    // During: two signatures; receivers on either secret verify, the retry of the older message too.
    t.clock.advance(5);
    await t.app.jobs.drain();
    const retried = lastFor(pendingId);
    expect(String(retried.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect([verifies(old, retried), verifies(next, retried)]).toEqual([true, true]);
    const during = await deliver(admin);
    expect([verifies(old, during), verifies(next, during)]).toEqual([true, true]);

    // After: the new secret alone.
    t.clock.advance(OVERLAP - 5);
    const after = await deliver(admin);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect([verifies(old, after), verifies(next, after)]).toEqual([false, true]);
    expect((await getSecret(admin.token)).json().data).toMatchObject({ secret: next, previous_secret_expires_at: null });
  });

  it('records each rotation in the audit trail, without any secret, and stores secrets sealed', async () => {
    const admin = await createAdmin(t.ctx);
    const old = (await getSecret(admin.token)).json().data.secret as string;
    const rotated = await rotate(admin.token, { overlap_seconds: 60 });
    const next = rotated.json().data.secret as string;
    const events = await t.ctx.db.selectFrom('audit_events').selectAll().where('pbx_id', '=', admin.pbxId).execute();
    const token = await t.ctx.db.selectFrom('access_tokens').select('id').where('user_id', '=', admin.id).executeTakeFirstOrThrow();
    expect(events).toEqual([
      {
        id: expect.any(String),
        pbx_id: admin.pbxId,
        action: 'webhook_signing_secret.rotated',
        subject_type: 'webhook_signing_secret',
        subject_id: admin.pbxId,
        principal_kind: 'user',
        principal_id: token.id,
        user_id: admin.id,
        request_id: rotated.headers['x-request-id'],
        details: JSON.stringify({ overlap_seconds: 60, previous_secret_expires_at: rotated.json().data.previous_secret_expires_at }),
        created_at: t.clock.now().toISOString(),
      },
    ]);
    const stored = await t.ctx.db.selectFrom('webhook_signing_secrets').selectAll().where('pbx_id', '=', admin.pbxId).executeTakeFirstOrThrow();
    for (const row of [JSON.stringify(events), JSON.stringify(stored)]) {
      for (const secret of [old, next]) {
        expect(row).not.toContain(secret);
        expect(row).not.toContain(secret.slice('whsec_'.length));
      }
    }
    expect(t.ctx.secrets.open(stored.secret_sealed)).toBe(next);
    expect(t.ctx.secrets.open(stored.previous_secret_sealed!)).toBe(old);
  });

  it('ends the previous secret at once with overlap_seconds 0, and keeps only the latest replaced secret on a second rotation', async () => {
    const admin = await createAdmin(t.ctx);
    const first = (await getSecret(admin.token)).json().data.secret as string;
    const second = (await rotate(admin.token)).json().data.secret as string;
    const third = (await rotate(admin.token)).json().data.secret as string;
    const message = await deliver(admin);
    expect([verifies(first, message), verifies(second, message), verifies(third, message)]).toEqual([false, true, true]);

    const leaked = await rotate(admin.token, { overlap_seconds: 0 });
    expect(leaked.json().data).toMatchObject({ previous_secret_expires_at: null, overlap_seconds: 0 });
    const fourth = leaked.json().data.secret as string;
    const now = await deliver(admin);
    expect(String(now.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect([verifies(third, now), verifies(fourth, now)]).toEqual([false, true]);
  });

  it('lets one of two simultaneous rotations win and answers 409 to the other, so no secret handed out is lost', async () => {
    const admin = await createAdmin(t.ctx);
    const rotateNow = () => rotateSigningSecret(t.ctx.db, t.ctx.secrets, t.ctx.config, admin.pbxId, t.clock.now(), 60);
    const outcomes = await Promise.allSettled([rotateNow(), rotateNow()]);
    const won = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.current] : []));
    const lost = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    for (const reason of lost) expect(reason).toMatchObject({ statusCode: 409 });
    const stored = await signingSecretsOf(t.ctx.db, t.ctx.secrets, t.ctx.config, admin.pbxId, t.clock.now());
    for (const secret of won) expect([stored.current, stored.previous]).toContain(secret);
    // SQLite runs the two reads before either write, so the race is certain there; PostgreSQL's pool may serialise them.
    if (t.ctx.dialect === 'sqlite') expect(lost).toHaveLength(1);
  });

  it('refuses a bad overlap window with 422', async () => {
    const admin = await createAdmin(t.ctx);
    for (const [payload, field] of [
      [{ overlap_seconds: -1 }, 'overlap_seconds'],
      [{ overlap_seconds: 7 * 24 * 3600 + 1 }, 'overlap_seconds'],
      [{ overlap_seconds: 'a day' }, 'overlap_seconds'],
      [{ overlap_seconds: 1.5 }, 'overlap_seconds'],
      [{ secret: 'whsec_mine' }, 'secret'],
    ] as const) {
      const refused = await rotate(admin.token, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(422);
      expect(refused.json()).toEqual({ message: expect.any(String), errors: { [field]: [expect.any(String)] } });
    }
    expect((await getSecret(admin.token)).json().data.rotated_at).toBeNull();
    expect(await t.ctx.db.selectFrom('audit_events').select('id').where('pbx_id', '=', admin.pbxId).execute()).toEqual([]);
  });

  it("seeds a demo tenant with one rotation by its admin, listed in the tenant's audit trail", async () => {
    const admin = await createAdmin(t.ctx);
    const samples = await seedIntegrations(t.ctx, { pbxId: admin.pbxId, index: 0, countryCode: 'LU', admin: { id: admin.id, email: admin.email }, users: [] });
    const trail = await t.app.inject({ method: 'GET', url: '/api/v1/audit-events', headers: bearer(admin.token) });
    expect(trail.json().data).toEqual([
      expect.objectContaining({ id: samples.audit_event, action: 'webhook_signing_secret.rotated', user_id: admin.id, principal_kind: 'user' }),
    ]);
    expect((await getSecret(admin.token)).json().data).toMatchObject({ rotated_at: expect.any(String), previous_secret_expires_at: expect.any(String) });
  });
});
