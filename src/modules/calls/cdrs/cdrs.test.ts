import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { answeredWithin, bearer, inTwoChunks, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createKey, createTenant, createUser, type TestTenant, type TestUser } from '../../../../test/factories.js';
import { buildCdr, matchesSchema, nextCdrId } from './cdrs.fixtures.js';
import { CallDetailRecord, CallHistoryEntry } from './cdrs.schemas.js';
import { stageRecording } from './recordings.js';
import type { IngestCdrView } from './cdrs.schemas.js';

const DATA_DIR = `/tmp/pbx-api-cdrs-test-${process.pid}-${randomUUID().slice(0, 8)}`;

function multipart(parts: Array<{ name: string; value?: string; filename?: string; content?: Buffer }>) {
  const boundary = `----pbxapi${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (part.filename !== undefined) {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      );
      chunks.push(part.content ?? Buffer.alloc(0));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value ?? ''}`));
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A tiny but real PCM WAV file. */
function wav(samples = 800): Buffer {
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin(i / 3) * 8000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

describe('call detail records', () => {
  let tenant: TestTenant;
  let serverKey: string;
  let admin: TestUser;

  const push = (records: IngestCdrView[], key = serverKey) =>
    t.app.inject({ method: 'POST', url: '/api/v1/cdrs', headers: bearer(key), payload: { cdrs: records } });
  const get = (url: string, token: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...bearer(token), ...headers } });

  // Registered before useTestApp(), so it runs after the app is closed (after-hooks run in reverse).
  afterAll(() => {
    rmSync(DATA_DIR, { recursive: true, force: true });
  });
  const t = useTestApp({ env: { DATA_DIR } });
  beforeAll(async () => {
    tenant = await createTenant(t.ctx);
    admin = await createAdmin(t.ctx, tenant);
    serverKey = await createKey(t.ctx, tenant, 'pbx_server');
  });

  describe('ingestion', () => {
    it('stores a batch once: pushing it again creates nothing and changes nothing', async () => {
      const user = await createUser(t.ctx, { tenant });
      const records = [buildCdr({ receiverUserId: user.id }), buildCdr({ callerUserId: user.id, type: 'OUTGOING', legStatus: 'BUSY' })];
      const first = await push(records);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ data: { received: 2, created: 2, duplicates: 0 } });
      const changed = { ...records[0], caller: { ...records[0].caller, name: 'Changed Name' } };
      const again = await push([changed, records[1], buildCdr()]);
      expect(again.json()).toEqual({ data: { received: 3, created: 1, duplicates: 2 } });
      const detail = await get(`/api/v1/cdrs/detail/${records[0].cdr_id}`, admin.token);
      expect(detail.json().data.caller.name).toBe('Jean Dupont');
      const rows = await t.ctx.db
        .selectFrom('cdr_participants')
        .select('user_id')
        .where('pbx_id', '=', tenant.pbxId)
        .where('cdr_id', '=', records[0].cdr_id)
        .execute();
      expect(rows).toEqual([{ user_id: user.id }]);
    });

    it('counts a cdr_id repeated inside one batch once', async () => {
      const record = buildCdr();
      const response = await push([record, record]);
      expect(response.json()).toEqual({ data: { received: 2, created: 1, duplicates: 1 } });
    });

    it('refuses invalid records with 422 and stores none of the batch', async () => {
      const good = buildCdr();
      const bad = { ...buildCdr(), type: 'SIDEWAYS' };
      const response = await push([good, bad as unknown as IngestCdrView]);
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toContain('cdrs.1.type');
      const reversed = { ...buildCdr(), end_time: '2020-01-01 00:00:00' };
      const timeError = await push([reversed]);
      expect(timeError.statusCode).toBe(422);
      expect(timeError.json().errors).toHaveProperty(['cdrs.0.end_time']);
      const missing = await get(`/api/v1/cdrs/detail/${good.cdr_id}`, admin.token);
      expect(missing.statusCode).toBe(404);
    });

    it('refuses user ids of another tenant', async () => {
      const stranger = await createUser(t.ctx);
      const response = await push([buildCdr({ receiverUserId: stranger.id })]);
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toHaveProperty(['cdrs.0.receivers.0.user_id']);
    });

    it('accepts only the PBX server key', async () => {
      const user = await createUser(t.ctx, { tenant });
      expect((await push([buildCdr()], user.token)).statusCode).toBe(403);
      expect((await push([buildCdr()], await createKey(t.ctx, tenant, 'integration', ['call-history']))).statusCode).toBe(403);
      const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/cdrs', payload: { cdrs: [buildCdr()] } });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toHaveProperty('error');
    });

    it('keeps the same cdr_id of two tenants apart', async () => {
      const other = await createTenant(t.ctx);
      const otherKey = await createKey(t.ctx, other, 'pbx_server');
      const cdrId = nextCdrId();
      await push([buildCdr({ cdrId, callerName: 'Ours' })]);
      const theirs = await push([buildCdr({ cdrId, callerName: 'Theirs' })], otherKey);
      expect(theirs.json().data.created).toBe(1);
      const otherAdmin = await createAdmin(t.ctx, other);
      expect((await get(`/api/v1/cdrs/detail/${cdrId}`, otherAdmin.token)).json().data.caller.name).toBe('Theirs');
      expect((await get(`/api/v1/cdrs/detail/${cdrId}`, admin.token)).json().data.caller.name).toBe('Ours');
    });
  });

  describe('detail', () => {
    it('takes any 64-bit id exactly: sent as digits, read back digit for digit; beyond the column a 422', async () => {
      const user = await createUser(t.ctx, { tenant });
      const biggest = '9223372036854775807';
      const pushed = await push([{ ...buildCdr({ receiverUserId: user.id }), cdr_id: biggest }]);
      expect(pushed.statusCode, pushed.body).toBe(200);
      const detail = await get(`/api/v1/cdrs/detail/${biggest}`, user.token);
      expect(detail.statusCode, detail.body).toBe(200);
      expect(detail.body).toContain(`"id":${biggest}`);
      const listed = await get('/api/v1/cdrs', user.token);
      expect(listed.body).toContain(`"id":${biggest}`);
      const again = await push([{ ...buildCdr({ receiverUserId: user.id }), cdr_id: biggest }]);
      expect(again.json().data).toMatchObject({ created: 0, duplicates: 1 });

      for (const id of ['9223372036854775808', '0', '12a']) {
        const response = await get(`/api/v1/cdrs/detail/${id}`, user.token);
        expect(response.statusCode, id).toBe(422);
        expect(Object.keys(response.json().errors), id).toEqual(['id']);
      }
      // A JSON number past 2^53 has lost its last digits before any code sees it: refused, with the way out.
      const rounded = await t.app.inject({
        method: 'POST',
        url: '/api/v1/cdrs',
        headers: { ...bearer(serverKey), 'content-type': 'application/json' },
        payload: JSON.stringify({ cdrs: [buildCdr({ receiverUserId: user.id })] }).replace(/"cdr_id":\d+/, '"cdr_id":9007199254740993'),
      });
      expect(rounded.statusCode).toBe(422);
      expect(Object.keys(rounded.json().errors)).toEqual(['cdrs.0.cdr_id']);
      const tooBig = await push([{ ...buildCdr({ receiverUserId: user.id }), cdr_id: '9223372036854775808' }]);
      expect(tooBig.json().errors).toEqual({ 'cdrs.0.cdr_id': ['The cdr id field must be an integer from 1 to 9223372036854775807.'] });
    });

    it('answers {data, status, message} with every field of the resource', async () => {
      const user = await createUser(t.ctx, { tenant });
      const record = { ...buildCdr({ receiverUserId: user.id }), notes: [{ text: 'Call back Monday' }], is_transfer_call: true };
      record.receivers[0] = { ...record.receivers[0], via_id: 'q-1', via_name: 'Sales queue', via_number: '600', via_type: 'QUEUE' };
      await push([record]);
      const response = await get(`/api/v1/cdrs/detail/${record.cdr_id}`, user.token);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.status).toBe(true);
      expect(typeof body.message).toBe('string');
      expect(matchesSchema(CallDetailRecord, body.data)).toBe(true);
      expect(body.data).toMatchObject({
        id: record.cdr_id,
        company_id: tenant.pbxId,
        type: 'INCOMING',
        status: 'answered',
        date: '2026-01-10',
        start_time: '2026-01-10 10:00:00',
        answer_time: '2026-01-10 10:00:08',
        end_time: '2026-01-10 10:00:50',
        duration: 50,
        billsec: 42,
        is_transfer_call: true,
        is_internal: false,
        is_conference_call: false,
        conference: [],
        is_recording_file_exists: false,
        recording_file: { name: '', path: null, download_url: null },
        caller: { id: null, name: 'Jean Dupont', number: '+352621000111' },
        notes: [{ text: 'Call back Monday' }],
        transcriptions: null,
        ai_processing_errors: [],
      });
      expect(body.data.receivers[0]).toEqual({
        id: user.id,
        status: 'ANSWERED',
        name: 'Front desk',
        number: '101',
        start_time: '2026-01-10 10:00:00',
        answer_time: '2026-01-10 10:00:08',
        end_time: '2026-01-10 10:00:50',
        duration: 50,
        billsec: 42,
        via_id: 'q-1',
        via_name: 'Sales queue',
        via_number: '600',
        via_type: 'QUEUE',
      });
      expect(body.data.call_flow).toHaveLength(2);
      expect(body.data.call_flow[0]).toEqual({ color: 'info', text: 'Call started', sub_text: null, time: '2026-01-10 10:00:00' });
      expect(body.data.recording_file.hint).toMatch(/whole call/i);
    });

    it('refuses keys without call-history (403), other tenants (404), unknown ids (404) and bad ids (422)', async () => {
      const record = buildCdr();
      await push([record]);
      const contactsKey = await createKey(t.ctx, tenant, 'integration', ['contacts']);
      expect((await get(`/api/v1/cdrs/detail/${record.cdr_id}`, contactsKey)).statusCode).toBe(403);
      expect((await get(`/api/v1/cdrs/detail/${record.cdr_id}`, await createKey(t.ctx, tenant, 'pbx'))).statusCode).toBe(403);
      const historyKey = await createKey(t.ctx, tenant, 'integration', ['call-history']);
      expect((await get(`/api/v1/cdrs/detail/${record.cdr_id}`, historyKey)).statusCode).toBe(200);
      const otherAdmin = await createAdmin(t.ctx);
      const foreign = await get(`/api/v1/cdrs/detail/${record.cdr_id}`, otherAdmin.token);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ message: ['Call detail record not found.'] });
      const otherKey = await createKey(t.ctx, await createTenant(t.ctx), 'integration', ['call-history']);
      expect((await get(`/api/v1/cdrs/detail/${record.cdr_id}`, otherKey)).statusCode).toBe(404);
      expect((await get('/api/v1/cdrs/detail/999999999', admin.token)).statusCode).toBe(404);
      const bad = await get('/api/v1/cdrs/detail/abc', admin.token);
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toHaveProperty('id');
    });

    it('shows a user only the calls it took part in (own_calls), 404 otherwise', async () => {
      const alice = await createUser(t.ctx, { tenant, fields: { call_information_visibility: 'own_calls' } });
      const bob = await createUser(t.ctx, { tenant });
      const bobs = buildCdr({ receiverUserId: bob.id });
      const alices = buildCdr({ callerUserId: alice.id, type: 'OUTGOING' });
      await push([bobs, alices]);
      expect((await get(`/api/v1/cdrs/detail/${alices.cdr_id}`, alice.token)).statusCode).toBe(200);
      expect((await get(`/api/v1/cdrs/detail/${bobs.cdr_id}`, alice.token)).statusCode).toBe(404);
      expect((await get(`/api/v1/cdrs/detail/${bobs.cdr_id}`, admin.token)).statusCode).toBe(200);
    });

    it("applies an admin's change of a user's visibility to the user's next request", async () => {
      const dora = await createUser(t.ctx, { tenant, fields: { call_information_visibility: 'own_calls' } });
      const doras = buildCdr({ callerUserId: dora.id, type: 'OUTGOING' });
      await push([doras]);
      expect((await get(`/api/v1/cdrs/detail/${doras.cdr_id}`, dora.token)).statusCode).toBe(200);
      const changed = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/users/${dora.id}`,
        headers: bearer(admin.token),
        payload: { call_information_visibility: 'none' },
      });
      expect(changed.statusCode).toBe(200);
      expect((await get(`/api/v1/cdrs/detail/${doras.cdr_id}`, dora.token)).statusCode).toBe(404);
      expect((await get('/api/v1/cdrs', dora.token)).json().data).toEqual([]);
    });
  });

  describe('list', () => {
    let listTenant: TestTenant;
    let listAdmin: TestUser;
    let key: string;
    let anna: TestUser;
    let ben: TestUser;
    let cleo: TestUser;
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      listTenant = await createTenant(t.ctx);
      listAdmin = await createAdmin(t.ctx, listTenant);
      key = await createKey(t.ctx, listTenant, 'pbx_server');
      anna = await createUser(t.ctx, { tenant: listTenant, fields: { call_information_visibility: 'own_calls' } });
      ben = await createUser(t.ctx, { tenant: listTenant, fields: { call_information_visibility: 'own_group_only' } });
      cleo = await createUser(t.ctx, { tenant: listTenant, fields: { call_information_visibility: 'none' } });
      // Ben and Anna share a group.
      const groupId = randomUUID();
      const now = new Date().toISOString();
      await t.ctx.db
        .insertInto('contact_groups')
        .values({
          id: groupId,
          pbx_id: listTenant.pbxId,
          name: 'Sales',
          description: null,
          default_internal_call_flow_id: null,
          default_external_call_flow_id: null,
          extension_id_shown_outside_the_group: null,
          default_caller_identity_id: null,
          external_uid: null,
          allow_call_pickups: 1,
          allow_default_pbxes_outgoing_phone_numbers: 0,
          display_tab_to_everyone_inside_voxbi: 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await t.ctx.db
        .insertInto('contact_group_users')
        .values([
          { group_id: groupId, user_id: anna.id },
          { group_id: groupId, user_id: ben.id },
        ])
        .execute();

      const specs: Array<[string, Parameters<typeof buildCdr>[0]]> = [
        ['annaIn', { start: '2026-01-01 08:00:00', receiverUserId: anna.id, callerName: 'Zoe Client', callerNumber: '+352691111111' }],
        [
          'annaOutBusy',
          {
            start: '2026-01-02 09:00:00',
            type: 'OUTGOING',
            callerUserId: anna.id,
            legStatus: 'BUSY',
            receiverName: 'Hardware Store',
            receiverNumber: '+49301234567',
          },
        ],
        ['benMissed', { start: '2026-01-03 10:00:00', receiverUserId: ben.id, legStatus: 'MISSED' }],
        [
          'internal',
          {
            start: '2026-01-04 11:00:00',
            type: 'OUTGOING',
            callerUserId: ben.id,
            receiverUserId: cleo.id,
            internal: true,
            callerNumber: '102',
            receiverNumber: '103',
          },
        ],
        ['failed', { start: '2026-01-05 12:00:00', legStatus: 'FAILED' }],
        ['cleoIn', { start: '2026-01-06 13:00:00', receiverUserId: cleo.id }],
      ];
      const records = specs.map(([name, spec]) => {
        const record = buildCdr(spec);
        ids[name] = record.cdr_id;
        return record;
      });
      // Same start time: ordered by cdr_id, newest first.
      const twinA = buildCdr({ start: '2026-01-07 14:00:00', cdrId: 5_000_001 });
      const twinB = buildCdr({ start: '2026-01-07 14:00:00', cdrId: 5_000_002 });
      ids.twinA = twinA.cdr_id;
      ids.twinB = twinB.cdr_id;
      await push([...records, twinA, twinB], key);
      const upload = multipart([
        { name: 'cdr', value: JSON.stringify({ ...buildCdr({ start: '2026-01-08 15:00:00', receiverUserId: anna.id }), cdr_id: 6_000_001 }) },
        { name: 'recording', filename: 'call.wav', content: wav() },
      ]);
      ids.recorded = 6_000_001;
      const uploaded = await t.app.inject({
        method: 'POST',
        url: '/api/v1/cdrs/with-recordings',
        headers: { ...bearer(key), ...upload.headers },
        payload: upload.payload,
      });
      expect(uploaded.statusCode).toBe(200);
    });

    const list = async (token: string, query = '') => {
      const response = await get(`/api/v1/cdrs${query}`, token);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{
        data: Array<{ id: number }>;
        links: { first: string; last: string; prev: string | null; next: string | null };
        meta: { current_page: number; from: number | null; to: number | null; last_page: number; per_page: number; total: number; path: string };
      }>();
    };
    const idsOf = (body: { data: Array<{ id: number }> }) => body.data.map((row) => row.id);

    it('lists the whole PBX newest first for an admin, each item in the documented shape', async () => {
      const body = await list(listAdmin.token);
      expect(idsOf(body)).toEqual([ids.recorded, ids.twinB, ids.twinA, ids.cleoIn, ids.failed, ids.internal, ids.benMissed, ids.annaOutBusy, ids.annaIn]);
      for (const item of body.data) expect(matchesSchema(CallHistoryEntry, item)).toBe(true);
      expect(body.meta).toMatchObject({ current_page: 1, from: 1, to: 9, last_page: 1, per_page: 15, total: 9, path: 'http://pbx.test/api/v1/cdrs' });
      expect(body.links).toEqual({ first: 'http://pbx.test/api/v1/cdrs?page=1', last: 'http://pbx.test/api/v1/cdrs?page=1', prev: null, next: null });
    });

    const all = () => [ids.recorded, ids.twinB, ids.twinA, ids.cleoIn, ids.failed, ids.internal, ids.benMissed, ids.annaOutBusy, ids.annaIn];

    it('answers the standard paginated envelope: page, perPage and sort are honoured', async () => {
      const second = await list(listAdmin.token, '?page=2&perPage=5&sort=-start_time');
      expect(idsOf(second)).toEqual(all().slice(5));
      expect(second.meta).toMatchObject({ current_page: 2, from: 6, to: 9, last_page: 2, per_page: 5, total: 9 });
      expect(second.links.first).toBe('http://pbx.test/api/v1/cdrs?perPage=5&sort=-start_time&page=1');
      expect(second.links.last).toBe('http://pbx.test/api/v1/cdrs?perPage=5&sort=-start_time&page=2');
      expect(second.links.next).toBeNull();
      // links.prev carries a cursor: the page before, read by keyset.
      expect(second.links.prev).toContain('cursor=');
      const first = await list(listAdmin.token, second.links.prev!.replace('http://pbx.test/api/v1/cdrs', ''));
      expect(idsOf(first)).toEqual(all().slice(0, 5));
      expect(first.meta).toMatchObject({ current_page: 1, from: 1, to: 5 });
      expect(first.links.prev).toBeNull();

      const oldestFirst = await list(listAdmin.token, '?sort=start_time&perPage=4');
      expect(idsOf(oldestFirst)).toEqual([...all()].reverse().slice(0, 4));
      const onward = await list(listAdmin.token, oldestFirst.links.next!.replace('http://pbx.test/api/v1/cdrs', ''));
      expect(idsOf(onward)).toEqual([...all()].reverse().slice(4, 8));
      expect(onward.meta).toMatchObject({ current_page: 2, from: 5, to: 8, last_page: 3 });
      // Page numbers near the end are read from the other end, with the same answer.
      for (const page of [1, 2, 3])
        expect(idsOf(await list(listAdmin.token, `?sort=start_time&perPage=4&page=${page}`))).toEqual([...all()].reverse().slice((page - 1) * 4, page * 4));
      const past = await list(listAdmin.token, '?page=9');
      expect(past.data).toEqual([]);
      expect(past.meta).toMatchObject({ current_page: 9, from: null, to: null, total: 9 });
    });

    it('refuses what it cannot honour with 422: an unknown sort, page with cursor, a cursor of the other order', async () => {
      for (const [query, field] of [
        ['?sort=duration', 'sort'],
        ['?per_page=5', 'per_page'],
        ['?page=0', 'page'],
      ] as const) {
        const response = await get(`/api/v1/cdrs${query}`, listAdmin.token);
        expect(response.statusCode, query).toBe(422);
        expect(Object.keys(response.json().errors), query).toEqual([field]);
      }
      const next = (await list(listAdmin.token, '?perPage=2')).links.next!;
      const cursor = new URL(next).searchParams.get('cursor')!;
      const both = await get(`/api/v1/cdrs?perPage=2&page=2&cursor=${cursor}`, listAdmin.token);
      expect(both.json().errors).toHaveProperty('page');
      const otherOrder = await get(`/api/v1/cdrs?perPage=2&sort=start_time&cursor=${cursor}`, listAdmin.token);
      expect(otherOrder.json().errors).toHaveProperty('cursor');
    });

    it('pages by cursor without gaps or repeats', async () => {
      const seen: number[] = [];
      let url = '/api/v1/cdrs?perPage=2&filter[from]=2026-01-01';
      for (let i = 0; i < 10 && url; i++) {
        const response = await get(url, listAdmin.token);
        const body = response.json();
        expect(body.data.length).toBeLessThanOrEqual(2);
        seen.push(...idsOf(body));
        url = body.links.next ? body.links.next.replace('http://pbx.test', '') : '';
        if (body.links.next) expect(body.links.next).toContain('filter%5Bfrom%5D=2026-01-01');
      }
      expect(seen).toEqual([ids.recorded, ids.twinB, ids.twinA, ids.cleoIn, ids.failed, ids.internal, ids.benMissed, ids.annaOutBusy, ids.annaIn]);
      const bad = await get('/api/v1/cdrs?cursor=not-a-cursor', listAdmin.token);
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toHaveProperty('cursor');
    });

    it('filters by date range, type, status, search, user, internal and recording', async () => {
      expect(idsOf(await list(listAdmin.token, '?filter[from]=2026-01-02&filter[to]=2026-01-04'))).toEqual([ids.internal, ids.benMissed, ids.annaOutBusy]);
      expect(idsOf(await list(listAdmin.token, '?filter[from]=2026-01-02 09:00:01&filter[to]=2026-01-03 10:00:00'))).toEqual([ids.benMissed]);
      expect(idsOf(await list(listAdmin.token, '?filter[type]=OUTGOING'))).toEqual([ids.internal, ids.annaOutBusy]);
      expect(idsOf(await list(listAdmin.token, '?filter[status]=busy'))).toEqual([ids.annaOutBusy]);
      expect(idsOf(await list(listAdmin.token, '?filter[status]=missed'))).toEqual([ids.benMissed]);
      expect(idsOf(await list(listAdmin.token, '?filter[status]=failed'))).toEqual([ids.failed]);
      expect(idsOf(await list(listAdmin.token, '?search=zoe'))).toEqual([ids.annaIn]);
      expect(idsOf(await list(listAdmin.token, '?search=4930123'))).toEqual([ids.annaOutBusy]);
      expect(idsOf(await list(listAdmin.token, '?search=100%25'))).toEqual([]);
      expect(idsOf(await list(listAdmin.token, `?filter[user_id]=${anna.id}`))).toEqual([ids.recorded, ids.annaOutBusy, ids.annaIn]);
      expect(idsOf(await list(listAdmin.token, '?filter[internal]=true'))).toEqual([ids.internal]);
      expect(idsOf(await list(listAdmin.token, '?filter[with_recording]=true'))).toEqual([ids.recorded]);
      // Boolean query parameters also take 1 and 0; anything else is refused.
      expect(idsOf(await list(listAdmin.token, '?filter[with_recording]=1'))).toEqual([ids.recorded]);
      expect(idsOf(await list(listAdmin.token, '?filter[internal]=0'))).toEqual(idsOf(await list(listAdmin.token, '?filter[internal]=false')));
      expect((await get('/api/v1/cdrs?filter[internal]=yes', listAdmin.token)).statusCode).toBe(422);
      expect(idsOf(await list(listAdmin.token, '?filter[with_recording]=true&filter[user_id]=' + ben.id))).toEqual([]);
    });

    it('refuses invalid filters with 422', async () => {
      for (const query of [
        '?filter[type]=SIDEWAYS',
        '?filter[status]=lost',
        '?filter[from]=yesterday',
        '?perPage=1000',
        '?filter[user_id]=nope',
        '?filter[from]=2026-02-01&filter[to]=2026-01-01',
      ]) {
        const response = await get(`/api/v1/cdrs${query}`, listAdmin.token);
        expect(response.statusCode, query).toBe(422);
        expect(response.json()).toHaveProperty('errors');
      }
    });

    it('follows call_information_visibility: own calls, own group, none', async () => {
      expect(idsOf(await list(anna.token))).toEqual([ids.recorded, ids.annaOutBusy, ids.annaIn]);
      expect(idsOf(await list(ben.token))).toEqual([ids.recorded, ids.internal, ids.benMissed, ids.annaOutBusy, ids.annaIn]);
      expect(idsOf(await list(cleo.token))).toEqual([]);
      expect((await get(`/api/v1/cdrs/detail/${ids.cleoIn}`, cleo.token)).statusCode).toBe(404);
      // Filtering by a colleague keeps the viewer's scope: Anna sees nothing of Cleo's; Ben sees his call with Cleo.
      expect(idsOf(await list(anna.token, `?filter[user_id]=${cleo.id}`))).toEqual([]);
      expect(idsOf(await list(ben.token, `?filter[user_id]=${cleo.id}`))).toEqual([ids.internal]);
      expect(idsOf(await list(ben.token, '?perPage=1&filter[status]=missed'))).toEqual([ids.benMissed]);
    });

    it('gives call-history keys the whole PBX and refuses other keys and other tenants', async () => {
      const historyKey = await createKey(t.ctx, listTenant, 'integration', ['call-history']);
      expect(idsOf(await list(historyKey))).toHaveLength(9);
      expect((await get('/api/v1/cdrs', await createKey(t.ctx, listTenant, 'integration', ['phone-numbers']))).statusCode).toBe(403);
      expect(idsOf(await list(admin.token))).not.toContain(ids.annaIn);
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/cdrs' })).statusCode).toBe(401);
    });

    it('serves the recording with Range support to those allowed to hear it', async () => {
      const detail = (await get(`/api/v1/cdrs/detail/${ids.recorded}`, anna.token)).json().data;
      expect(detail.is_recording_file_exists).toBe(true);
      const { path, download_url: url, name } = detail.recording_file;
      expect(path).toMatch(/^2026\/01\/6000001-full\.wav$/);
      expect(name).toBe('6000001-full.wav');
      expect(url).toBe(`http://pbx.test/api/v1/cdrs/recording?path=${encodeURIComponent(path)}`);
      expect(detail.recording_file_path_caller).toMatchObject({ name: '', path: null, download_url: null });

      const whole = await get(`/api/v1/cdrs/recording?path=${encodeURIComponent(path)}`, anna.token);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-type']).toBe('audio/wav');
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(whole.rawPayload.equals(wav())).toBe(true);

      const part = await get(`/api/v1/cdrs/recording?path=${encodeURIComponent(path)}`, anna.token, { range: 'bytes=0-43' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 0-43/${wav().length}`);
      expect(part.rawPayload.subarray(0, 4).toString()).toBe('RIFF');
      expect(part.rawPayload.length).toBe(44);
      const tail = await get(`/api/v1/cdrs/recording?path=${encodeURIComponent(path)}`, anna.token, { range: 'bytes=-10' });
      expect(tail.statusCode).toBe(206);
      expect(tail.rawPayload.equals(wav().subarray(-10))).toBe(true);
      const open = await get(`/api/v1/cdrs/recording?path=${encodeURIComponent(path)}`, anna.token, { range: `bytes=${wav().length - 5}-` });
      expect(open.rawPayload.length).toBe(5);
      const beyond = await get(`/api/v1/cdrs/recording?path=${encodeURIComponent(path)}`, anna.token, { range: `bytes=${wav().length}-` });
      expect(beyond.statusCode).toBe(416);
      expect(beyond.headers['content-range']).toBe(`bytes */${wav().length}`);

      // Ben sees the call through his group but his recordings visibility is his own calls only (the default).
      const benDetail = (await get(`/api/v1/cdrs/detail/${ids.recorded}`, ben.token)).json().data;
      expect(benDetail.is_recording_file_exists).toBe(true);
      expect(benDetail.recording_file).toMatchObject({ path: null, download_url: null });
      expect((await get(`/api/v1/cdrs/recording?path=${encodeURIComponent(path)}`, ben.token)).statusCode).toBe(403);
      // Cleo cannot see the call at all; another tenant's admin does not find it.
      expect((await get(`/api/v1/cdrs/recording?path=${encodeURIComponent(path)}`, cleo.token)).statusCode).toBe(404);
      expect((await get(`/api/v1/cdrs/recording?path=${encodeURIComponent(path)}`, admin.token)).statusCode).toBe(404);
      const historyKey = await createKey(t.ctx, listTenant, 'integration', ['call-history']);
      expect((await get(`/api/v1/cdrs/recording?path=${encodeURIComponent(path)}`, historyKey)).statusCode).toBe(200);
    });

    it('refuses traversal and paths outside the tenant recordings', async () => {
      // A file of another tenant and a stray file beside the tenant roots.
      mkdirSync(join(DATA_DIR, 'recordings', tenant.pbxId), { recursive: true });
      writeFileSync(join(DATA_DIR, 'recordings', tenant.pbxId, 'secret.wav'), wav());
      writeFileSync(join(DATA_DIR, 'secret.txt'), 'top secret');
      for (const path of [
        '../secret.txt',
        `../${tenant.pbxId}/secret.wav`,
        '2026/../../secret.txt',
        '2026/./01/x.wav',
        '/etc/passwd',
        '..%2fsecret.txt',
        '2026//01/6000001-full.wav',
        'a\\..\\secret.txt',
      ]) {
        const response = await get(`/api/v1/cdrs/recording?path=${encodeURIComponent(path)}`, listAdmin.token);
        expect([404, 422], path).toContain(response.statusCode);
        expect(response.headers['content-type']).toMatch(/json/);
      }
      // A symbolic link inside the tenant's root that points out of it is not followed.
      const root = join(DATA_DIR, 'recordings', listTenant.pbxId);
      symlinkSync(join(DATA_DIR, 'secret.txt'), join(root, 'link.wav'));
      await t.ctx.db
        .insertInto('cdr_recordings')
        .values({
          pbx_id: listTenant.pbxId,
          cdr_id: ids.failed,
          kind: 'full',
          path: 'link.wav',
          name: 'link.wav',
          content_type: 'audio/wav',
          size_bytes: 10,
          created_at: new Date().toISOString(),
        })
        .execute();
      const viaLink = await get('/api/v1/cdrs/recording?path=link.wav', listAdmin.token);
      expect(viaLink.statusCode).toBe(404);
      const missing = await get('/api/v1/cdrs/recording', listAdmin.token);
      expect(missing.statusCode).toBe(422);
    });

    it('refuses uploads without the cdr field first, with unknown file fields or types', async () => {
      const noCdr = multipart([{ name: 'recording', filename: 'a.wav', content: wav() }]);
      const r1 = await t.app.inject({
        method: 'POST',
        url: '/api/v1/cdrs/with-recordings',
        headers: { ...bearer(key), ...noCdr.headers },
        payload: noCdr.payload,
      });
      expect(r1.statusCode).toBe(422);
      const badType = multipart([
        { name: 'cdr', value: JSON.stringify(buildCdr()) },
        { name: 'recording', filename: 'a.exe', content: Buffer.from('MZ') },
      ]);
      const r2 = await t.app.inject({
        method: 'POST',
        url: '/api/v1/cdrs/with-recordings',
        headers: { ...bearer(key), ...badType.headers },
        payload: badType.payload,
      });
      expect(r2.statusCode).toBe(422);
      const badCdr = multipart([{ name: 'cdr', value: JSON.stringify({ cdr_id: 'x' }) }]);
      const r3 = await t.app.inject({
        method: 'POST',
        url: '/api/v1/cdrs/with-recordings',
        headers: { ...bearer(key), ...badCdr.headers },
        payload: badCdr.payload,
      });
      expect(r3.statusCode).toBe(422);
      expect(r3.json().errors).toHaveProperty(['cdr.cdr_id']);
      const asUser = await t.app.inject({
        method: 'POST',
        url: '/api/v1/cdrs/with-recordings',
        headers: { ...bearer(anna.token), ...badCdr.headers },
        payload: badCdr.payload,
      });
      expect(asUser.statusCode).toBe(403);
    });

    it('refuses what is not multipart or names no boundary (415) and a field after cdr (422); takes cdr sent as application/json', async () => {
      const record = { ...buildCdr({ start: '2026-01-09 11:00:00' }), cdr_id: 6_000_779 };
      const send = (headers: Record<string, string>, payload: Buffer | string) =>
        t.app.inject({ method: 'POST', url: '/api/v1/cdrs/with-recordings', headers: { ...bearer(key), ...headers }, payload });
      const body = multipart([
        { name: 'cdr', value: JSON.stringify(record) },
        { name: 'recording', filename: 'call.wav', content: wav() },
      ]);
      for (const contentType of ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=""']) {
        const answer = await send({ 'content-type': contentType }, body.payload);
        expect(answer.statusCode, contentType).toBe(415);
        expect(answer.json().message).toMatch(/^The multipart\/form-data content type names no boundary/);
      }
      const json = await send({ 'content-type': 'application/json' }, JSON.stringify({ cdr: record }));
      expect(json.statusCode).toBe(415);
      expect(json.json()).toEqual({ message: 'Send multipart/form-data: the cdr field, then the recording files.' });
      const tooMany = 'The upload has more than 1 form field: send at most 1 form field beside the file parts.';
      const twoFields = multipart([
        { name: 'cdr', value: JSON.stringify(record) },
        { name: 'note', value: 'x' },
        { name: 'recording', filename: 'call.wav', content: wav() },
      ]);
      const refused = await send(twoFields.headers, twoFields.payload);
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toEqual({ message: tooMany, errors: { note: [tooMany] } });
      expect((await get(`/api/v1/cdrs/detail/${record.cdr_id}`, listAdmin.token)).statusCode).toBe(404);

      // A client that sends the cdr part as JSON (as OpenAPI has an object part sent) is understood.
      const typed = Buffer.from(body.payload.toString('latin1').replace('name="cdr"\r\n', 'name="cdr"\r\nContent-Type: application/json\r\n'), 'latin1');
      const taken = await send(body.headers, typed);
      expect(taken.statusCode, taken.body).toBe(200);
      expect((await get(`/api/v1/cdrs/detail/${record.cdr_id}`, listAdmin.token)).statusCode).toBe(200);
    });

    it('answers an upload cut short inside a recording with 422 on that file, and stores nothing', async () => {
      const record = { ...buildCdr({ start: '2026-01-09 10:00:00' }), cdr_id: 6_000_778 };
      // A small body is read whole before the recording is; a larger one ends while it is being read,
      // or in the header of a part after it.
      const small = multipart([
        { name: 'cdr', value: JSON.stringify(record) },
        { name: 'recording', filename: 'call.wav', content: wav() },
      ]);
      const large = multipart([
        { name: 'cdr', value: JSON.stringify(record) },
        { name: 'recording', filename: 'call.wav', content: wav(100_000) },
      ]);
      const cut = (body: Buffer) => body.subarray(0, body.length - 30);
      const boundary = large.headers['content-type'].split('boundary=')[1];
      const partHeaderCut = Buffer.concat([cut(large.payload), Buffer.from(`\r\n--${boundary}\r\nContent-Disp`)]);
      const send = (headers: Record<string, string>, payload: Buffer | Readable) =>
        answeredWithin(t.app.inject({ method: 'POST', url: '/api/v1/cdrs/with-recordings', headers: { ...bearer(key), ...headers }, payload }));
      for (const response of [await send(small.headers, cut(small.payload)), await send(large.headers, inTwoChunks(cut(large.payload), 100_000))]) {
        expect(response.statusCode, response.body).toBe(422);
        expect(response.json().errors).toEqual({ recording: ['The upload ended before it was complete (its closing boundary is missing): send it again.'] });
      }
      const files = readdirSync(join(DATA_DIR, 'recordings', listTenant.pbxId), { recursive: true }).map(String);
      expect(files.filter((name) => name.includes(String(record.cdr_id)))).toEqual([]);
      expect((await get(`/api/v1/cdrs/detail/${record.cdr_id}`, listAdmin.token)).statusCode).toBe(404);
      // Cut after the file: whether the reader saw the file end before it noticed the cut is a matter
      // of timing, so the call is taken or refused, but the request is answered.
      expect([200, 422]).toContain((await send(large.headers, inTwoChunks(partHeaderCut, 100_000))).statusCode);
    });

    it('refuses a recording the multipart reader cut at its size limit with 413, keeping no file', async () => {
      const root = join(DATA_DIR, 'staging-test');
      const source = Object.assign(Readable.from([Buffer.from('RIFF')]), { truncated: true });
      await expect(stageRecording(root, '2026/01/1-full.wav', source, 'recording')).rejects.toMatchObject({ statusCode: 413 });
      expect(readdirSync(join(root, '2026/01'))).toEqual([]);
    });

    it('stores neither the call nor any file when a later file of the upload is refused', async () => {
      const upload = async (parts: Parameters<typeof multipart>[0]) => {
        const body = multipart(parts);
        return t.app.inject({ method: 'POST', url: '/api/v1/cdrs/with-recordings', headers: { ...bearer(key), ...body.headers }, payload: body.payload });
      };
      const stored = () =>
        readdirSync(join(DATA_DIR, 'recordings', listTenant.pbxId), { recursive: true })
          .map(String)
          .filter((name) => name.includes(String(record.cdr_id)));
      const record = { ...buildCdr({ start: '2026-01-09 09:00:00' }), cdr_id: 6_000_777 };
      const cdrField = { name: 'cdr', value: JSON.stringify(record) };

      const badSecond = await upload([
        cdrField,
        { name: 'recording', filename: 'call.wav', content: wav() },
        { name: 'recording_caller', filename: 'caller.exe', content: Buffer.from('MZ') },
      ]);
      expect(badSecond.statusCode).toBe(422);
      expect(badSecond.json().errors).toHaveProperty(['recording_caller']);
      const twice = await upload([
        cdrField,
        { name: 'recording', filename: 'a.wav', content: wav() },
        { name: 'recording', filename: 'b.wav', content: wav() },
      ]);
      expect(twice.statusCode).toBe(422);
      const unknownField = await upload([
        cdrField,
        { name: 'recording', filename: 'a.wav', content: wav() },
        { name: 'video', filename: 'v.wav', content: wav() },
      ]);
      expect(unknownField.statusCode).toBe(422);
      expect(stored()).toEqual([]);
      expect((await get(`/api/v1/cdrs/detail/${record.cdr_id}`, listAdmin.token)).statusCode).toBe(404);

      // The same call sent again, correctly, stores the call and both files.
      const good = await upload([
        cdrField,
        { name: 'recording', filename: 'call.wav', content: wav() },
        { name: 'recording_caller', filename: 'caller.wav', content: wav(400) },
      ]);
      expect(good.statusCode, good.body).toBe(200);
      expect(good.json().data.recordings.map((r: { kind: string }) => r.kind)).toEqual(['full', 'caller']);
      expect(
        stored()
          .filter((name) => name.endsWith('.wav'))
          .sort(),
      ).toEqual([`2026/01/${record.cdr_id}-caller.wav`, `2026/01/${record.cdr_id}-full.wav`]);
      expect(stored().some((name) => name.endsWith('.part'))).toBe(false);
      const detail = await get(`/api/v1/cdrs/detail/${record.cdr_id}`, listAdmin.token);
      expect(detail.json().data.is_recording_file_exists).toBe(true);
    });
  });
});

describe('call detail rate limit', () => {
  const t = useTestApp({ config: { cdrDetailRateLimitPerMinute: 3 } });

  it('allows the configured number of detail reads per principal a minute, then answers 429 with Retry-After', async () => {
    const tenant = await createTenant(t.ctx);
    const admin = await createAdmin(t.ctx, tenant);
    const other = await createAdmin(t.ctx, tenant);
    const record = buildCdr();
    await t.app.inject({ method: 'POST', url: '/api/v1/cdrs', headers: bearer(await createKey(t.ctx, tenant, 'pbx_server')), payload: { cdrs: [record] } });
    const read = (token: string) => t.app.inject({ method: 'GET', url: `/api/v1/cdrs/detail/${record.cdr_id}`, headers: bearer(token) });
    for (let i = 0; i < 3; i++) {
      const ok = await read(admin.token);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['x-ratelimit-limit']).toBe('3');
    }
    const limited = await read(admin.token);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toHaveProperty('message');
    // Another principal has its own budget, and the list is not counted against the detail's.
    expect((await read(other.token)).statusCode).toBe(200);
    const listed = await t.app.inject({ method: 'GET', url: '/api/v1/cdrs', headers: bearer(admin.token) });
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['x-ratelimit-limit']).toBe('120');
  });
});
