import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/database.js';
import type { Database } from '../db/database.js';
import type { Principal } from '../platform/auth/principal.js';
import { ManualClock } from '../platform/clock.js';
import { SecretBox } from '../platform/crypto.js';
import { ValidationFailed } from '../platform/errors.js';
import { purgeExpiredKeys } from '../platform/idempotency/idempotency.js';
import { registerErrorHandling } from './error-handler.js';
import { operationRoutes } from './resource-routes.js';

/**
 * The route helper's Idempotency-Key on a route of its own, whose handler counts its runs and can
 * be held open, on the test database (SQLite, or PostgreSQL in the postgres project). The caller
 * is named by an `x-who` header (`user:<id>:<pbx>` or `api-key:<id>:<pbx>`), standing in for the auth plugin.
 */
describe('Idempotency-Key (http/idempotency.ts)', () => {
  let database: Database;
  let app: FastifyInstance;
  let base: string;
  const clock = new ManualClock(new Date('2026-03-02T09:00:00Z'));
  let runs = 0;
  let hold: Promise<void> | null = null;

  beforeAll(async () => {
    database = await openTestDatabase();
    app = Fastify();
    app.decorate('ctx', { db: database.db, clock, secrets: new SecretBox('idempotency-test-key') });
    app.decorateRequest('principal', null);
    app.addHook('onRequest', (request, _reply, done) => {
      const [kind, id, pbxId] = String(request.headers['x-who']).split(':');
      const principal: Principal =
        kind === 'user'
          ? { kind: 'user', id: `token-${id}`, userId: id, pbxId, role: 'user', tokenId: `token-${id}`, rateLimit: null }
          : { kind: 'integration', id, pbxId, scopes: [], rateLimit: null };
      (request as unknown as { principal: Principal }).principal = principal;
      done();
    });
    registerErrorHandling(app, false);
    const { route } = operationRoutes(app, { tags: ['Things'] });
    route('/things/:group', {
      method: 'POST',
      auth: { user: true, integration: [] },
      operationId: 'createThing',
      summary: 'Create a thing',
      params: Type.Object({ group: Type.String() }),
      querystring: Type.Object({ flag: Type.Optional(Type.Boolean()) }),
      body: Type.Object({ name: Type.String() }),
      response: { 201: Type.Object({ id: Type.Number(), name: Type.String() }), 503: Type.Object({ message: Type.String() }) },
      handle: async ({ body, reply }) => {
        const id = ++runs;
        if (hold) await hold;
        if (body.name === 'refused') throw ValidationFailed.field('name', 'Not this name.');
        if (body.name === 'broken') throw new Error('unexpected');
        if (body.name === 'unavailable') return reply.code(503).send({ message: 'Try later.' });
        reply.code(201).header('location', `/things/${id}`);
        return { id, name: body.name };
      },
    });
    // A create whose answer carries a secret: kept sealed.
    route('/secrets', {
      method: 'POST',
      auth: { user: true },
      config: { carriesSecret: true },
      operationId: 'createSecret',
      summary: 'Create a secret',
      response: { 201: Type.Object({ token: Type.String() }) },
      handle: ({ reply }) => {
        reply.code(201);
        return { token: `pbxi_secret-${++runs}` };
      },
    });
    // Not a create: takes no key unless it says so.
    route('/things/:group/touch', {
      method: 'POST',
      auth: { user: true },
      operationId: 'touchThing',
      summary: 'Touch',
      params: Type.Object({ group: Type.String() }),
      response: { 200: Type.Object({ runs: Type.Number() }) },
      handle: () => ({ runs: ++runs }),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });
  beforeEach(() => {
    runs = 0;
    hold = null;
  });

  const who = (id = 'u1', pbx = 'pbx-a', kind = 'user') => `${kind}:${id}:${pbx}`;
  const post = (key: string | undefined, body: object, options: { url?: string; caller?: string } = {}) =>
    app.inject({
      method: 'POST',
      url: options.url ?? '/things/g1',
      headers: { 'x-who': options.caller ?? who(), ...(key === undefined ? {} : { 'idempotency-key': key }) },
      payload: body,
    });

  it('replays the first answer (status, body, Location, Content-Type) and runs the handler once', async () => {
    const first = await post('k-replay', { name: 'a' });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post('k-replay', { name: 'a' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.body).toBe(first.body);
    expect(runs).toBe(1);
    // Without a key every request runs.
    await post(undefined, { name: 'a' });
    await post(undefined, { name: 'a' });
    expect(runs).toBe(3);
  });

  it('refuses the same key with another body, query or path with 422 on Idempotency-Key', async () => {
    expect((await post('k-other', { name: 'a' })).statusCode).toBe(201);
    for (const other of [
      post('k-other', { name: 'b' }),
      post('k-other', { name: 'a' }, { url: '/things/g1?flag=true' }),
      post('k-other', { name: 'a' }, { url: '/things/g2' }),
    ]) {
      const answer = await other;
      expect(answer.statusCode).toBe(422);
      expect(answer.json()).toEqual({ message: expect.any(String), errors: { 'Idempotency-Key': [expect.stringMatching(/different request/)] } });
    }
    expect(runs).toBe(1);
    expect((await post('x'.repeat(256), { name: 'a' })).json().errors).toHaveProperty('Idempotency-Key');
  });

  it('answers 409 while the first request runs; a client that gave up and retries gets the one answer', async () => {
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    // The client gives up after 100 ms (the server goes on).
    const gaveUp = fetch(`${base}/things/g1`, {
      method: 'POST',
      headers: { 'x-who': who(), 'idempotency-key': 'k-timeout', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'slow' }),
      signal: AbortSignal.timeout(100),
    }).catch((error: Error) => error);
    expect(await gaveUp).toBeInstanceOf(Error);
    const running = await post('k-timeout', { name: 'slow' });
    expect(running.statusCode).toBe(409);
    expect(running.json()).toEqual({ message: expect.stringMatching(/still being processed/) });
    release();
    await expect.poll(async () => (await post('k-timeout', { name: 'slow' })).statusCode).toBe(201);
    const retried = await post('k-timeout', { name: 'slow' });
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.json()).toEqual({ id: 1, name: 'slow' });
    expect(runs).toBe(1);
  });

  it('frees the key after a 4xx, a 5xx answer or an unexpected error: the retry runs', async () => {
    for (const name of ['refused', 'unavailable', 'broken']) {
      const failed = await post(`k-${name}`, { name });
      expect(failed.statusCode).toBeGreaterThanOrEqual(400);
      const retried = await post(`k-${name}`, { name });
      expect(retried.statusCode).toBe(failed.statusCode);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(runs).toBe(6);
    const rows = await database.db.selectFrom('idempotency_records').select('key').where('key', 'in', ['k-refused', 'k-unavailable', 'k-broken']).execute();
    expect(rows).toEqual([]);
  });

  it('keeps each caller’s keys apart: another user, an API key, another tenant', async () => {
    expect((await post('k-mine', { name: 'a' })).statusCode).toBe(201);
    for (const caller of [who('u2'), who('u1', 'pbx-a', 'api-key'), who('u1', 'pbx-b')]) {
      const answer = await post('k-mine', { name: 'a' }, { caller });
      expect(answer.statusCode).toBe(201);
      expect(answer.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(runs).toBe(4);
    // Every token of one user shares its keys (the principal is the user, not the token).
    const rows = await database.db.selectFrom('idempotency_records').select(['pbx_id', 'principal']).where('key', '=', 'k-mine').orderBy('principal').execute();
    expect(rows).toEqual([
      { pbx_id: 'pbx-a', principal: 'api-key:u1' },
      { pbx_id: 'pbx-a', principal: 'user:u1' },
      { pbx_id: 'pbx-b', principal: 'user:u1' },
      { pbx_id: 'pbx-a', principal: 'user:u2' },
    ]);
  });

  it('keeps the answer of a route that carries a secret sealed, and replays it in clear', async () => {
    const create = () => app.inject({ method: 'POST', url: '/secrets', headers: { 'x-who': who(), 'idempotency-key': 'k-secret' } });
    const first = await create();
    expect(first.json()).toEqual({ token: 'pbxi_secret-1' });
    const row = await database.db.selectFrom('idempotency_records').selectAll().where('key', '=', 'k-secret').executeTakeFirstOrThrow();
    expect(row.sealed).toBe(1);
    expect(row.response_body).not.toContain('pbxi_secret');
    const again = await create();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
  });

  it('ignores the header on routes that do not take it', async () => {
    const touch = () => app.inject({ method: 'POST', url: '/things/g1/touch', headers: { 'x-who': who(), 'idempotency-key': 'k-touch' } });
    expect((await touch()).json()).toEqual({ runs: 1 });
    expect((await touch()).json()).toEqual({ runs: 2 });
  });

  it('keeps a key 24 hours, then purges it and runs the request anew', async () => {
    expect((await post('k-day', { name: 'a' })).statusCode).toBe(201);
    clock.advance(24 * 3600 - 1);
    expect(await purgeExpiredKeys(database.db, clock)).toBe(0);
    expect((await post('k-day', { name: 'a' })).headers['idempotent-replayed']).toBe('true');
    clock.advance(1);
    expect(await purgeExpiredKeys(database.db, clock)).toBeGreaterThan(0);
    expect(await database.db.selectFrom('idempotency_records').select('key').where('key', '=', 'k-day').execute()).toEqual([]);
    const later = await post('k-day', { name: 'a' });
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(runs).toBe(2);
  });
});
