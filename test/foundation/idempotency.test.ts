import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { buildTestApp, bearer, useTestApp, type TestApp } from '../helpers.js';
import { createAdmin, createKey, createUser } from '../factories.js';
import { multipart } from '../imports.js';
import { openSharedEmptyDatabase } from '../database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { toneWav } from '../../src/modules/routing/sound-files/wav.js';
import { EventBus } from '../../src/platform/events/event-bus.js';
import { claimKey, purgeExpiredKeys } from '../../src/platform/idempotency/idempotency.js';

interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: Array<{ $ref?: string; in?: string; name?: string }>;
  responses: Record<string, { headers?: Record<string, unknown> }>;
}

/** Non-creating POSTs where a retry would double an effect: they take the key too. */
const OPTED_IN = [
  'approveAbsenceRequest',
  'rejectAbsenceRequest',
  'cancelAbsenceRequest',
  'pushConfiguration',
  'rollbackConfiguration',
  'confirmContactImport',
  'rotateWebhookSigningSecret',
  'placeCall',
];

/** A user who may create the PBX's (global) contacts. */
const contactsManager = (ctx: TestApp['ctx'], tenant?: { pbxId: string }) => createUser(ctx, { tenant, fields: { allow_manage_global_contacts: 1 } });

const takesKey = (operation: Operation) =>
  (operation.parameters ?? []).some(
    (parameter) =>
      parameter.$ref === '#/components/parameters/IdempotencyKey' || (parameter.in === 'header' && parameter.name?.toLowerCase() === 'idempotency-key'),
  );

describe('Safe retries: Idempotency-Key in the OpenAPI document', () => {
  const t = useTestApp();
  let operations: Array<{ name: string; method: string; operation: Operation }>;
  beforeAll(async () => {
    const document = (await t.app.inject('/api/v1/openapi.json')).json<{ paths: Record<string, Record<string, Operation>> }>();
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, method, operation })),
    );
  });

  it('documents the key on every creating POST (201) that needs credentials, and on the opted-in moves, with 409 and Idempotent-Replayed', () => {
    const creates = operations.filter(({ method, operation }) => method === 'post' && operation.responses['201'] && operation.security?.length);
    expect(creates.length).toBeGreaterThan(30);
    const opted = operations.filter(({ operation }) => OPTED_IN.includes(operation.operationId ?? ''));
    expect(opted.map(({ operation }) => operation.operationId).sort()).toEqual([...OPTED_IN].sort());
    const missing: string[] = [];
    for (const { name, operation } of [...creates, ...opted]) {
      if (!takesKey(operation)) missing.push(`${name}: Idempotency-Key`);
      if (!operation.responses['409']) missing.push(`${name}: 409`);
      const successes = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
      for (const [status, response] of successes) if (!response.headers?.['Idempotent-Replayed']) missing.push(`${name} ${status}: Idempotent-Replayed`);
    }
    expect(missing).toEqual([]);
  });

  it('leaves it off public routes (sign-ins) and reads', () => {
    const wrong = operations.filter(({ method, operation }) => takesKey(operation) && (method === 'get' || !operation.security?.length));
    expect(wrong.map(({ name }) => name)).toEqual([]);
  });
});

describe('Safe retries across the API', () => {
  const t = useTestApp();
  const post = (token: string, url: string, key: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { ...bearer(token), 'idempotency-key': key }, payload });
  const contactsNamed = (name: string) => t.ctx.db.selectFrom('contacts').select('id').where('name1', '=', name).execute();

  it('a create retried after the client gave up creates one row; another body is 422; other callers’ keys are their own', async () => {
    const user = await contactsManager(t.ctx);
    const name = `Retry ${randomUUID()}`;
    const key = randomUUID();
    // The first answer never reaches the client (it timed out): it retries with the same key.
    await post(user.token, '/contacts', key, { name1: name });
    const retry = await post(user.token, '/contacts', key, { name1: name });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await contactsNamed(name)).toEqual([{ id: retry.json().data.id }]);

    const other = await post(user.token, '/contacts', key, { name1: `${name} (other)` });
    expect(other.statusCode).toBe(422);
    expect(other.json().errors).toHaveProperty('Idempotency-Key');

    // The tenant's integration key and another tenant's user: the same key is theirs to use.
    const integration = await createKey(t.ctx, user.tenant, 'integration', ['contacts']);
    const stranger = await contactsManager(t.ctx);
    for (const token of [integration, stranger.token]) {
      const own = await post(token, '/contacts', key, { name1: name });
      expect(own.statusCode).toBe(201);
      expect(own.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(await contactsNamed(name)).toHaveLength(3);
  });

  it('replays an upload whose parts match (another boundary), refuses other parts with 422', async () => {
    const admin = await createAdmin(t.ctx);
    const key = randomUUID();
    const wav = toneWav({ seconds: 0.5, frequencyHz: 440 });
    const upload = (content: Buffer, name = 'Welcome') => {
      const body = multipart({ name: 'welcome.wav', content, type: 'audio/wav' }, { name, type: 'announcement' });
      return t.app.inject({
        method: 'POST',
        url: '/api/v1/sound-files',
        headers: { ...bearer(admin.token), ...body.headers, 'idempotency-key': key },
        payload: body.payload,
      });
    };
    const first = await upload(wav);
    expect(first.statusCode).toBe(201);
    const again = await upload(wav);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await upload(toneWav({ seconds: 0.5, frequencyHz: 880 }))).statusCode).toBe(422);
    expect((await upload(wav, 'Other name')).statusCode).toBe(422);
    const rows = await t.ctx.db.selectFrom('sound_files').select('id').where('pbx_id', '=', admin.pbxId).execute();
    expect(rows).toEqual([{ id: first.json().data.id }]);
  });

  it('replays a contact import whose file (read in many chunks) matches, and refuses another file', async () => {
    const user = await createUser(t.ctx);
    const key = randomUUID();
    const csv = `Name,E-mail,Phone\n${'Cleo Martin,cleo@example.test,621 100 003\n'.repeat(5000)}`;
    const upload = (content: string) => {
      const body = multipart({ name: 'contacts.csv', content });
      return t.app.inject({
        method: 'POST',
        url: '/api/v1/contacts/imports',
        headers: { ...bearer(user.token), ...body.headers, 'idempotency-key': key },
        payload: body.payload,
      });
    };
    const first = await upload(csv);
    expect(first.statusCode).toBe(201);
    const again = await upload(csv);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await upload(`${csv}Dan Roth,dan@example.test,621 100 004\n`)).statusCode).toBe(422);
    const rows = await t.ctx.db.selectFrom('contact_imports').select('id').where('user_id', '=', user.id).execute();
    expect(rows).toEqual([{ id: first.json().data.id }]);
  });
});

describe('Safe retries: keys are purged after 24 hours by the background pruning', () => {
  const t = useTestApp({ env: { JOB_WORKER: 'false' } });

  it('the pruning timer (the live events’ own, as app.ts starts it) deletes the expired keys and keeps the others', async () => {
    const user = await contactsManager(t.ctx);
    const create = (key: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/contacts', headers: { ...bearer(user.token), 'idempotency-key': key }, payload: { name1: key } });
    const old = randomUUID();
    expect((await create(old)).statusCode).toBe(201);
    t.clock.advance(12 * 3600);
    // Twelve hours later (the test token has expired: the store itself takes this one).
    const recent = randomUUID();
    const claim = { pbxId: user.pbxId, principal: `user:${user.id}`, key: recent, fingerprint: 'f'.repeat(64) };
    expect(await claimKey(t.ctx.db, t.clock, claim)).toEqual({ kind: 'new' });
    t.clock.advance(12 * 3600);
    const bus = new EventBus({ db: t.ctx.db, dialect: t.ctx.dialect, clock: t.clock, retentionHours: 24, pruneDelayMs: 1 });
    try {
      bus.startPruning([() => purgeExpiredKeys(t.ctx.db, t.clock)]);
      const keys = () => t.ctx.db.selectFrom('idempotency_records').select('key').where('key', 'in', [old, recent]).execute();
      await expect.poll(keys).toEqual([{ key: recent }]);
    } finally {
      await bus.close();
    }
  });
});

describe('Safe retries on two instances of one database', () => {
  let shared: Awaited<ReturnType<typeof openSharedEmptyDatabase>>;
  const instances: TestApp[] = [];
  beforeAll(async () => {
    shared = await openSharedEmptyDatabase(2);
    await migrateToLatest(shared.handles[0].db);
    for (const database of shared.handles) instances.push(await buildTestApp({ database, env: { JOB_WORKER: 'false' } }));
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await shared?.close();
  });

  it('a retry on the other instance replays; racing requests with one key create one row', async () => {
    const [a, b] = instances;
    const user = await contactsManager(a.ctx);
    const send = (app: TestApp, key: string, name: string) =>
      app.app.inject({ method: 'POST', url: '/api/v1/contacts', headers: { ...bearer(user.token), 'idempotency-key': key }, payload: { name1: name } });
    const count = async (name: string) => (await a.ctx.db.selectFrom('contacts').select('id').where('name1', '=', name).execute()).length;

    const key = randomUUID();
    expect((await send(a, key, 'Across')).statusCode).toBe(201);
    const retried = await send(b, key, 'Across');
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(await count('Across')).toBe(1);

    const raceKey = randomUUID();
    const answers = await Promise.all([send(a, raceKey, 'Race'), send(b, raceKey, 'Race'), send(a, raceKey, 'Race'), send(b, raceKey, 'Race')]);
    for (const answer of answers) expect([201, 409]).toContain(answer.statusCode);
    expect(answers.filter((answer) => answer.statusCode === 201 && answer.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(await count('Race')).toBe(1);
  });
});
