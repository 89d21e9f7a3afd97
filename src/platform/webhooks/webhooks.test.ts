import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, useTestApp } from '../../../test/helpers.js';
import { createAdmin, createUser } from '../../../test/factories.js';
import { runImport, upload } from '../../../test/imports.js';
import { isPrivateAddress } from '../net/addresses.js';
import { postGuarded, UnsafeUrl } from './url-guard.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('webhooks', () => {
  let server: Server;
  let base: string;
  const received: Received[] = [];
  let failNext = 0;

  // Registered before useTestApp(), so it runs after the app is closed (after-hooks run in reverse).
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  const t = useTestApp({ config: { jobWorkerEnabled: false, webhookAllowPrivate: true } });
  /** An import's webhook is a subscription: its events become deliveries by the dispatch, then are sent. */
  const deliver = async (pbxId: string) => {
    await t.app.webhookDispatcher.dispatch(pbxId);
    await t.app.jobs.drain();
  };
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (req.url === '/moved') {
          res.writeHead(307, { location: '/hook' }).end();
          return;
        }
        received.push({ path: req.url ?? '', headers: req.headers, body });
        if (failNext > 0) {
          failNext--;
          res.writeHead(500).end('try later');
        } else res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  it('delivers signed import lifecycle events that verify with the PBX secret', async () => {
    const user = await createUser(t.ctx, { fields: { allow_manage_global_contacts: 1 } });
    // The secret is the PBX's, read by its administrators (who hand it to the receiver).
    const admin = await createAdmin(t.ctx, user.tenant);
    const secret = (await t.app.inject({ method: 'GET', url: '/api/v1/webhooks/signing-secret', headers: bearer(admin.token) })).json().data.secret;
    expect(secret).toMatch(/^whsec_/);
    const imp = (
      await upload(
        t,
        user.token,
        { name: 'c.csv', content: 'Name,E-mail,Phone\nHook Person,hook@example.test,621 900 001\n' },
        { webhook_url: `${base}/moved` },
      )
    ).json().data;
    const done = await runImport(t, user.token, imp.id);
    expect(done.status).toBe('completed');
    await deliver(user.pbxId);

    const mine = received.filter((r) => JSON.parse(r.body).data.id === imp.id);
    // Standard Webhooks promises no ordering between messages; each carries its own type and timestamp.
    expect(mine.map((r) => JSON.parse(r.body).type).sort()).toEqual(['contact_import.completed', 'contact_import.created', 'contact_import.processing']);
    mine.sort(
      (a, b) =>
        ['created', 'processing', 'completed'].indexOf(JSON.parse(a.body).type.split('.')[1]) -
        ['created', 'processing', 'completed'].indexOf(JSON.parse(b.body).type.split('.')[1]),
    );
    const verifier = new Webhook(secret);
    for (const request of mine) {
      expect(request.path).toBe('/hook'); // the redirect was followed
      expect(request.headers['webhook-id']).toMatch(/^msg_/);
      expect(request.headers['webhook-signature']).toMatch(/^v1,/);
      const payload = verifier.verify(request.body, request.headers as Record<string, string>) as { data: { id: string; status: string } };
      expect(payload.data.id).toBe(imp.id);
    }
    // Each message is {type, timestamp, data: the import as its GET showed it then}.
    expect(mine.map((r) => Object.keys(JSON.parse(r.body)))).toEqual(Array(3).fill(['type', 'timestamp', 'data']));
    expect(JSON.parse(mine[0].body).data).toEqual(imp);
    expect(JSON.parse(mine[1].body).data).toMatchObject({ status: 'processing', started_at: done.started_at, mappings: done.mappings });
    const { records: _records, errors: _errors, ...read } = done;
    expect(JSON.parse(mine[2].body).data).toEqual(read);
    expect(read).toMatchObject({ status: 'completed', records_count: 1 });
    // A tampered body or another PBX's secret does not verify.
    expect(() => verifier.verify(mine[0].body.replace('created', 'deleted'), mine[0].headers as Record<string, string>)).toThrow();
    const otherAdmin = await createAdmin(t.ctx);
    const otherSecret = (await t.app.inject({ method: 'GET', url: '/api/v1/webhooks/signing-secret', headers: bearer(otherAdmin.token) })).json().data.secret;
    expect(() => new Webhook(otherSecret).verify(mine[0].body, mine[0].headers as Record<string, string>)).toThrow();

    const log = await t.app.inject({ method: 'GET', url: `/api/v1/webhooks/deliveries?filter[subject_id]=${imp.id}`, headers: bearer(user.token) });
    expect(log.statusCode).toBe(200);
    expect(log.json().data).toHaveLength(3);
    expect(log.json().data.every((d: { status: string; response_status: number }) => d.status === 'delivered' && d.response_status === 204)).toBe(true);
    const one = await t.app.inject({ method: 'GET', url: `/api/v1/webhooks/deliveries/${log.json().data[0].id}`, headers: bearer(user.token) });
    expect(one.json().data.payload.data.id).toBe(imp.id);
    // Another user of the same PBX does not see this user's deliveries.
    const colleague = await createUser(t.ctx, { tenant: user.tenant });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/webhooks/deliveries', headers: bearer(colleague.token) })).json().data).toEqual([]);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/webhooks/deliveries/${log.json().data[0].id}`, headers: bearer(colleague.token) })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/webhooks/deliveries?filter[status]=lost', headers: bearer(user.token) })).statusCode).toBe(422);
  });

  it('makes the import’s webhook a subscription of its own, which the API neither lists nor changes, removed with the import', async () => {
    const user = await createUser(t.ctx, { fields: { allow_manage_global_contacts: 1 } });
    const admin = await createAdmin(t.ctx, user.tenant);
    const imp = (await upload(t, user.token, { name: 'c.csv', content: 'Name\nOwn\n' }, { webhook_url: `${base}/own` })).json().data;
    const subscriptions = () => t.ctx.db.selectFrom('webhook_subscriptions').selectAll().where('pbx_id', '=', user.pbxId).execute();
    const [own] = await subscriptions();
    expect(own).toMatchObject({
      user_id: user.id,
      url: `${base}/own`,
      subject_type: 'contact_import',
      subject_id: imp.id,
      payload: 'data',
      owner_kind: 'contact_import',
      owner_id: imp.id,
      active: 1,
    });
    expect(JSON.parse(own.kinds)).toEqual([
      'contact_import.created',
      'contact_import.processing',
      'contact_import.completed',
      'contact_import.completed_with_errors',
      'contact_import.failed',
    ]);
    const api = (method: 'GET' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(admin.token), ...(payload ? { payload } : {}) });
    expect((await api('GET', '/webhook-subscriptions')).json().data).toEqual([]);
    expect((await api('GET', `/webhook-subscriptions/${own.id}`)).statusCode).toBe(404);
    expect((await api('PATCH', `/webhook-subscriptions/${own.id}`, { active: false })).statusCode).toBe(404);
    expect((await api('DELETE', `/webhook-subscriptions/${own.id}`)).statusCode).toBe(404);
    expect(await subscriptions()).toEqual([own]);
    await deliver(user.pbxId);
    expect(received.filter((r) => r.path === '/own').map((r) => JSON.parse(r.body).type)).toEqual(['contact_import.created']);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/v1/contacts/imports/${imp.id}`, headers: bearer(user.token) });
    expect(removed.statusCode).toBe(204);
    expect(await subscriptions()).toEqual([]);
  });

  it('retries a failed delivery with backoff and logs every attempt', async () => {
    const user = await createUser(t.ctx, { fields: { allow_manage_global_contacts: 1 } });
    failNext = 2;
    const imp = (await upload(t, user.token, { name: 'c.csv', content: 'Name\nRetry\n' }, { webhook_url: `${base}/hook` })).json().data;
    await deliver(user.pbxId);
    const deliveries = () =>
      t.app
        .inject({ method: 'GET', url: `/api/v1/webhooks/deliveries?filter[subject_id]=${imp.id}`, headers: bearer(user.token) })
        .then((r) => r.json().data[0]);
    expect(await deliveries()).toMatchObject({ status: 'pending', attempts: 1, response_status: 500, last_error: 'HTTP 500: try later' });
    await t.app.jobs.drain();
    expect((await deliveries()).attempts).toBe(1); // waits for its backoff
    t.clock.advance(5);
    await t.app.jobs.drain();
    expect(await deliveries()).toMatchObject({ status: 'pending', attempts: 2 });
    t.clock.advance(10);
    await t.app.jobs.drain();
    expect(await deliveries()).toMatchObject({ status: 'delivered', attempts: 3, response_status: 204, last_error: null });
  });

  it('refuses loopback, private and link-local targets unless allowed', async () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.5',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) expect(isPrivateAddress(address), address).toBe(false);
    const options = { allowPrivate: false, timeoutMs: 1000 };
    await expect(postGuarded(`${base}/hook`, {}, '{}', options)).rejects.toBeInstanceOf(UnsafeUrl);
    await expect(postGuarded(`${base.replace('127.0.0.1', 'localhost')}/hook`, {}, '{}', options)).rejects.toBeInstanceOf(UnsafeUrl);
    await expect(postGuarded('http://[::1]:9/hook', {}, '{}', options)).rejects.toBeInstanceOf(UnsafeUrl);
    // A URL spells an IPv4-mapped address in hex ([::ffff:7f00:1]): still loopback.
    const before = received.length;
    await expect(postGuarded(`${base.replace('127.0.0.1', '[::ffff:127.0.0.1]')}/hook`, {}, '{}', options)).rejects.toBeInstanceOf(UnsafeUrl);
    expect(received.length).toBe(before);
    await expect(postGuarded('file:///etc/passwd', {}, '{}', options)).rejects.toBeInstanceOf(UnsafeUrl);

    const strict = await buildTestApp({ config: { jobWorkerEnabled: false, webhookAllowPrivate: false } });
    try {
      const user = await createUser(strict.ctx);
      const refused = await upload(strict, user.token, { name: 'c.csv', content: 'Name\nX\n' }, { webhook_url: `${base}/hook` });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toHaveProperty('webhook_url');
      // A delivery whose URL turned private after it was saved is refused at send time and logged.
      const { enqueueWebhook } = await import('./webhooks.js');
      await enqueueWebhook(strict.ctx.db, strict.clock, {
        pbxId: user.pbxId,
        userId: user.id,
        event: 'test.ping',
        subjectType: 'test',
        subjectId: user.id,
        url: `${base}/hook`,
        data: {},
      });
      const before = received.length;
      await strict.app.jobs.drain();
      expect(received.length).toBe(before);
      const row = await strict.ctx.db.selectFrom('webhook_deliveries').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row.last_error).toContain('private address');
    } finally {
      await strict.close();
    }
  });
});
