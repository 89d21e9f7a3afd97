/**
 * The SDK against a running server: the test app listens on a port and the SDK calls it over HTTP
 * with the global fetch, as an integration would (SQLite, and PostgreSQL when the suite runs on it).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdmin, createExtension, createKey, createTenant, createUser, type TestUser } from '../../../test/factories.js';
import { useTestApp } from '../../../test/helpers.js';
import { buildCdr, nextCdrId } from '../../../src/modules/calls/cdrs/cdrs.fixtures.js';
import { toneWav } from '../../../src/modules/routing/sound-files/wav.js';
import { PbxApi, PreconditionFailed, signIn, TooManyRequests, Unauthorized, ValidationFailed } from '../src/index.js';

const DATA_DIR = `/tmp/pbx-api-sdk-test-${process.pid}-${randomUUID().slice(0, 8)}`;

describe('the SDK against a started server', () => {
  const t = useTestApp({ env: { DATA_DIR } });
  let baseUrl: string;
  let admin: TestUser;
  let api: PbxApi;
  /** What went over the wire, for the headers the SDK sets on its own. */
  const sent: Request[] = [];
  const lastPost = () => sent.filter((r) => r.method === 'POST').at(-1);
  const recording = (request: Request) => {
    sent.push(request.clone());
    return fetch(request);
  };

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1`;
    // An administrator who may manage the PBX's shared contacts and groups.
    admin = await createUser(t.ctx, { role: 'admin', fields: { allow_manage_global_contacts: 1 } });
    api = await signIn.password({ baseUrl, fetch: recording }, { email: admin.email, password: admin.password });
  });
  afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

  describe('signs in as each kind of principal', () => {
    it('a user by password, and reads its profile; a wrong password is Unauthorized with its {error}', async () => {
      expect(api.principal).toBe('user');
      const me = await api.get('/me');
      expect(me?.data.email).toBe(admin.email);
      const refused = await signIn.password({ baseUrl }, { email: admin.email, password: 'not-the-password' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(Unauthorized);
      expect((refused as Unauthorized).status).toBe(401);
    });

    it('a user by magic link and by one-time code, read from the e-mail the server sends', async () => {
      const user = await createUser(t.ctx, { tenant: admin.tenant });
      await signIn.requestMagicLink({ baseUrl }, user.email);
      const link = await vi.waitFor(() => /magic-login\/([A-Za-z0-9_-]+)/.exec(t.mailer.last(user.email)?.text ?? '')![1]);
      const byLink = await signIn.magicLink({ baseUrl }, link);
      expect((await byLink.get('/me'))?.data.id).toBe(user.id);

      const mails = t.mailer.sent.length;
      expect((await signIn.requestCode({ baseUrl }, user.email)).expires_in).toBeGreaterThan(0);
      const code = await vi.waitFor(() => {
        expect(t.mailer.sent.length).toBeGreaterThan(mails);
        return /login code: (\d{6})/.exec(t.mailer.last(user.email)!.subject)![1];
      });
      const byCode = await signIn.code({ baseUrl }, { email: user.email, code });
      expect((await byCode.get('/user'))?.id).toBe(user.id);
      await byCode.logout();
      await expect(byCode.get('/me')).rejects.toBeInstanceOf(Unauthorized);
    });

    it('API keys as they are, checked against the kind expected', async () => {
      const integration = signIn.apiKey({ baseUrl }, await createKey(t.ctx, admin.tenant, 'integration', ['phone-numbers']), 'integration');
      expect(integration.principal).toBe('integration');
      expect((await integration.get('/phone-numbers'))?.meta.total).toBe(0);
      const pbx = signIn.apiKey({ baseUrl }, await createKey(t.ctx, admin.tenant, 'pbx'));
      expect(pbx.principal).toBe('pbx');
      expect((await pbx.get('/users'))?.data.map((u) => u.id)).toContain(admin.id);
      expect(() => signIn.apiKey({ baseUrl }, pbx.token!, 'pbx-server')).toThrow('a pbx key where a pbx-server key was expected');
      expect(() => signIn.apiKey({ baseUrl }, admin.token)).toThrow('not a pbx-api API key');
    });
  });

  describe('lists', () => {
    it('walks the pages of a list, and every item', async () => {
      const tenant = await createTenant(t.ctx);
      const owner = api.as((await createAdmin(t.ctx, tenant)).token);
      for (let i = 0; i < 5; i++) await createExtension(t.ctx, tenant, { number: `30${i}` });
      const pages = [];
      for await (const page of owner.pages('/extensions', { params: { query: { perPage: 2, sort: 'number' } } })) pages.push(page);
      expect(pages.map((page) => page.meta.current_page)).toEqual([1, 2, 3]);
      const numbers = [];
      for await (const extension of owner.items('/extensions', { params: { query: { perPage: 2, sort: 'number' } } })) numbers.push(extension.number);
      expect(numbers).toEqual(['300', '301', '302', '303', '304']);
    });

    it("follows the call history's keyset cursors", async () => {
      const pbxServer = signIn.apiKey({ baseUrl }, await createKey(t.ctx, admin.tenant, 'pbx_server'), 'pbx-server');
      const records = [1, 2, 3].map((n) => buildCdr({ start: `2026-01-1${n} 10:00:00`, receiverUserId: admin.id }));
      expect((await pbxServer.post('/cdrs', { body: { cdrs: records } }))?.data.created).toBe(3);
      const seen = [];
      for await (const page of api.pages('/cdrs', { params: { query: { perPage: 1 } } })) {
        seen.push(...page.data.map((call) => call.id));
        if (page.links.next) expect(new URL(page.links.next).searchParams.has('cursor')).toBe(true);
      }
      expect(seen).toEqual(records.map((r) => r.cdr_id).reverse());
    });
  });

  describe('writes', () => {
    it('creates with an Idempotency-Key of its own, or the one given', async () => {
      const created = await api.post('/contacts', { body: { name1: 'Ada Lovelace' } });
      expect(created?.data.name1).toBe('Ada Lovelace');
      const request = lastPost();
      expect(request?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);

      await api.post('/contacts', { body: { name1: 'Grace Hopper' }, idempotencyKey: 'mine-1' });
      expect(lastPost()?.headers.get('idempotency-key')).toBe('mine-1');
      // Not a create (a restore answers 200, or 404 for a contact not deleted): no key.
      await api.post('/contacts/{contact}/restore', { params: { path: { contact: created!.data.id } } }).catch(() => undefined);
      expect(lastPost()?.url).toMatch(/\/restore$/);
      expect(lastPost()?.headers.has('idempotency-key')).toBe(false);
    });

    it('a create sent twice with one key is created once: the second answer is the first, replayed', async () => {
      const key = randomUUID();
      const first = await api.post('/contact-groups', { body: { name: 'Suppliers' }, idempotencyKey: key });
      const again = await api.post('/contact-groups', { body: { name: 'Suppliers' }, idempotencyKey: key });
      expect(again?.data.id).toBe(first?.data.id);
      const groups = await api.get('/contact-groups', { params: { query: { search: 'Suppliers' } } });
      expect(groups?.data.filter((g) => g.name === 'Suppliers')).toHaveLength(1);
      // Through openapi-fetch's own client: the replay says so; the key with another body is a typed 422.
      const raw = await api.client.POST('/contact-groups', { body: { name: 'Suppliers' }, params: { header: { 'Idempotency-Key': key } } });
      expect(raw.response.headers.get('idempotent-replayed')).toBe('true');
      const reused = await api.post('/contact-groups', { body: { name: 'Vendors' }, idempotencyKey: key }).catch((e: unknown) => e);
      expect(reused).toBeInstanceOf(ValidationFailed);
      expect(Object.keys((reused as ValidationFailed).errors)).toEqual(['Idempotency-Key']);
    });

    it('updates with If-Match: the current ETag applies, a stale one is PreconditionFailed with the current ETag', async () => {
      const contact = (await api.post('/contacts', { body: { name1: 'Katherine' } }))!.data;
      const path = { params: { path: { contact: contact.id } } };
      const { etag } = await api.getWithEtag('/contacts/{contact}', path);
      expect(etag).toMatch(/^"/);
      await api.put('/contacts/{contact}', { ...path, body: { name1: 'Katherine Johnson' }, ifMatch: etag });
      const stale = await api.put('/contacts/{contact}', { ...path, body: { name1: 'K. Johnson' }, ifMatch: etag }).catch((e: unknown) => e);
      expect(stale).toBeInstanceOf(PreconditionFailed);
      const current = await api.getWithEtag('/contacts/{contact}', path);
      expect((stale as PreconditionFailed).etag).toBe(current.etag);
      expect(current.data?.name1).toBe('Katherine Johnson');
    });

    it('reads a 422 as ValidationFailed, its messages by field', async () => {
      const refused = await api.post('/contacts', { body: { name1: '' } }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ValidationFailed);
      const error = refused as ValidationFailed;
      expect(error.status).toBe(422);
      expect(Object.keys(error.errors)).toEqual(['name1']);
      expect(error.body.message).toBeTypeOf('string');
    });
  });

  describe('files', () => {
    const wav = new Uint8Array(toneWav({ seconds: 0.5, frequencyHz: 440 }));

    it('uploads a sound file and downloads it whole or by a byte range', async () => {
      const file = new File([wav], 'tone.wav', { type: 'audio/wav' });
      const created = (await api.post('/sound-files', { body: { file, name: 'Welcome', type: 'announcement' } }))!.data;
      expect(created.name).toBe('Welcome');
      const path = { params: { path: { soundFile: created.id } } };
      const whole = await api.download('/sound-files/{soundFile}/content', path);
      expect(whole.status).toBe(200);
      expect(await whole.bytes()).toEqual(wav);
      const part = await api.download('/sound-files/{soundFile}/content', { ...path, range: { start: 10, end: 19 } });
      expect(part.status).toBe(206);
      expect(part.range).toEqual({ start: 10, end: 19, size: wav.length });
      expect(await part.bytes()).toEqual(wav.subarray(10, 20));
    });

    it('uploads a contact import', async () => {
      const file = new File(['first,last,phone\nAda,Lovelace,+35227123456\n'], 'contacts.csv', { type: 'text/csv' });
      const created = await api.post('/contacts/imports', { body: { file, delimiter: ',' } });
      expect(created?.data.status).toBe('incomplete');
    });

    it('pushes a call with its recording (multipart, the record as JSON) and downloads the recording by a range', async () => {
      const pbxServer = signIn.apiKey({ baseUrl }, await createKey(t.ctx, admin.tenant, 'pbx_server'), 'pbx-server');
      const cdr = buildCdr({ cdrId: nextCdrId(), receiverUserId: admin.id });
      await pbxServer.post('/cdrs/with-recordings', { body: { cdr, recording: new File([wav], 'call.wav') } });
      const detail = await api.get('/cdrs/detail/{id}', { params: { path: { id: String(cdr.cdr_id) } } });
      const recordingPath = (detail as { data: { recording_file: { path: string } } }).data.recording_file.path;
      const tail = await api.download('/cdrs/recording', { params: { query: { path: recordingPath } }, range: { suffix: 100 } });
      expect(tail.status).toBe(206);
      expect(tail.range?.end).toBe(tail.range!.size - 1);
      expect((await tail.bytes()).length).toBe(100);
    });
  });

  describe('429', () => {
    it("waits the server's Retry-After and tries again, as often as allowed; then TooManyRequests", async () => {
      const tenant = await createTenant(t.ctx, { rateLimitPerMinute: 2 });
      const waits: number[] = [];
      const limited = new PbxApi({ baseUrl, token: (await createAdmin(t.ctx, tenant)).token, retries: 1, sleep: async (ms) => void waits.push(ms) });
      await limited.get('/me');
      await limited.get('/me');
      const refused = await limited.get('/me').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(TooManyRequests);
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThan(0);
      expect(waits[0]).toBeLessThanOrEqual(60_000);
      expect((refused as TooManyRequests).retryAfter).toBeGreaterThan(0);
    });

    it('a retried create sends the same body and Idempotency-Key, and returns the answer that came after the wait', async () => {
      const seen: Array<{ key: string | null; body: string }> = [];
      let calls = 0;
      const flaky = async (request: Request) => {
        seen.push({ key: request.headers.get('idempotency-key'), body: await request.clone().text() });
        return ++calls === 1
          ? new Response(JSON.stringify({ message: 'Too Many Attempts.' }), { status: 429, headers: { 'retry-after': '2' } })
          : fetch(request);
      };
      const waits: number[] = [];
      const retrying = new PbxApi({ baseUrl, token: admin.token, fetch: flaky, sleep: async (ms) => void waits.push(ms) });
      const created = await retrying.post('/contacts', { body: { name1: 'Retried' } });
      expect(created?.data.name1).toBe('Retried');
      expect(waits).toEqual([2000]);
      expect(seen).toHaveLength(2);
      expect(seen[1]).toEqual(seen[0]);
      expect(seen[0].key).toBeTruthy();
    });
  });
});
