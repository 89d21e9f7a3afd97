import { randomUUID } from 'node:crypto';
import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../db/database.js';
import { migrateToLatest } from '../../../db/migrate.js';
import { apiCaller, buildTestApp, type TestApp } from '../../../../test/helpers.js';
import { openSharedEmptyDatabase, openTestDatabase } from '../../../../test/database.js';
import { createAdmin, createExtension, createUser, type TestTenant, type TestUser } from '../../../../test/factories.js';
import { createSoundFile } from '../../../../test/routing-factories.js';
import { comparableState, loadRoutingState, routingCache } from './cache.js';
import { patchedGraphCheck } from './guard.js';
import { problemsOf } from './validate.js';

/** Counts the statements the database answers while recording (the token's look-up aside when asked), naming each by its kind and first table (for a readable failure). */
function statementLog(): KyselyPlugin & { count: number; recording: boolean; skipToken: boolean; names: string[] } {
  const named = new WeakMap<object, string>();
  return {
    count: 0,
    recording: false,
    skipToken: false,
    names: [],
    transformQuery({ node, queryId }) {
      named.set(queryId, `${node.kind} ${/"name":"(\w+)"/.exec(JSON.stringify(node))?.[1] ?? ''}`);
      return node;
    },
    async transformResult({ result, queryId }) {
      const name = named.get(queryId) ?? 'precompiled';
      // The caller's token is read again after each write (the tenant's cached tokens are dropped): not the routing's statement.
      if (this.recording && !(this.skipToken && name.endsWith(' access_tokens'))) {
        this.count += 1;
        this.names.push(name);
      }
      return result;
    },
  };
}

const NUMBER = '+35227555000';
const NOW = '2026-11-20T09:00:00.000Z';
const OPEN = '2026-11-24T09:00:00Z'; // a Tuesday, 10:00 in Luxembourg

/** Builds a small routing through the API: a number into a flow that plays, rings the agent, then queues. */
async function routing(t: TestApp, admin: TestUser, agent: TestUser) {
  const call = apiCaller(() => t);
  const post = async (url: string, body: object) => {
    const response = await call('POST', url, admin.token, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ data: { id: string } }>().data.id;
  };
  const welcome = await createSoundFile(t.ctx, admin.tenant, 'announcement', { name: 'Welcome' });
  const queue = await post('/queues', { name: 'Support', members: [{ type: 'user', id: agent.id }], overflow: { type: 'hangup' } });
  const flow = await post('/call-flows', {
    name: 'Main',
    entry: 'hello',
    nodes: [
      { key: 'hello', type: 'play', sound_file_id: welcome, next: 'ring' },
      { key: 'ring', type: 'ring_user', user_id: agent.id, no_answer: 'q' },
      { key: 'q', type: 'queue', queue_id: queue },
    ],
  });
  await post('/phone-numbers', { number: NUMBER, destination_type: 'call_flow', destination_id: flow });
  return { welcome, queue, flow };
}

describe('the routing graph cache: one statement per request, never a stale graph', () => {
  let t: TestApp;
  let database: Database;
  const log = statementLog();
  let admin: TestUser;
  let tenant: TestTenant;
  let agent: TestUser;
  let ids: { welcome: string; queue: string; flow: string };
  const call = apiCaller(() => t);
  beforeAll(async () => {
    database = await openTestDatabase();
    t = await buildTestApp({ database: { ...database, db: database.db.withPlugin(log) } });
    admin = await createAdmin(t.ctx);
    tenant = admin.tenant;
    agent = await createUser(t.ctx, { tenant, fields: { first_name: 'Anna', last_name: 'Agent' } });
    ids = await routing(t, admin, agent);
  });
  afterAll(async () => {
    await t.close();
    await database.close();
  });

  const cache = () => routingCache(t.ctx.db);
  const served = () => cache().current(t.ctx.db, tenant);
  const version = () => cache().version(t.ctx.db, tenant);
  const ok = async (response: { statusCode: number; body: string }, status = 200) => expect(response.statusCode, response.body).toBe(status);

  /**
   * The change moves what the graph reads: the graph served after it is not the one before, and is
   * what a load from the database reads now; validation's problems too.
   */
  async function servedFreshAfter(change: () => Promise<unknown>) {
    const before = comparableState(await served());
    await cache().problems(t.ctx.db, tenant);
    await change();
    const now = await served();
    const loaded = await loadRoutingState(t.ctx.db, tenant);
    expect(comparableState(now)).not.toEqual(before);
    expect(comparableState(now)).toEqual(comparableState(loaded));
    expect(await cache().problems(t.ctx.db, tenant)).toEqual(problemsOf(loaded.graph, loaded.numbers));
  }

  it('answers validation and simulation from the cache with one statement (plus the number and the holidays a simulation looks up)', async () => {
    await ok(await call('POST', '/call-routing/validate', admin.token, {}));
    await ok(await call('POST', '/call-routing/simulate', admin.token, { number: NUMBER, at: OPEN }));
    log.count = 0;
    log.names = [];
    log.recording = true;
    const validated = await call('POST', '/call-routing/validate', admin.token, {});
    const validateStatements = log.count;
    const validateNames = log.names.join(', ');
    log.count = 0;
    log.names = [];
    const simulated = await call('POST', '/call-routing/simulate', admin.token, { number: NUMBER, at: OPEN });
    const simulateStatements = log.count;
    const simulateNames = log.names.join(', ');
    log.recording = false;
    await ok(validated);
    await ok(simulated);
    expect(validated.json()).toEqual({ data: { valid: true, problems: [] } });
    expect(simulated.json<{ data: { result: string } }>().data.result).toBe('answered');
    // The routing version is the one statement of a validation; neither drops the cached token (keepsCaches).
    expect(validateStatements, validateNames).toBe(1);
    // The version and the dialled number (this flow has no time condition, so no holidays).
    expect(simulateStatements, simulateNames).toBe(2);
  });

  it('a routing write checks against the cached graph: POST /ivrs in 10 statements', async () => {
    const body = (name: string) => ({ pbx_id: tenant.pbxId, name, announcement: ids.welcome });
    await ok(await call('POST', '/ivrs', admin.token, body('Warm')), 201);
    patchedGraphCheck.enabled = false;
    log.count = 0;
    log.names = [];
    log.skipToken = true;
    log.recording = true;
    const response = await call('POST', '/ivrs', admin.token, body('Counted'));
    log.recording = false;
    log.skipToken = false;
    patchedGraphCheck.enabled = true;
    await ok(response, 201);
    // Before: 26 (two loads of the whole graph, 11 statements each). Now: the version claimed, the
    // sound file checked, the insert, the row read back, the menu and its steps read again, the
    // live event (two on SQLite, one on PostgreSQL), the version read; the answer's steps.
    expect(log.count, log.names.join(', ')).toBeLessThanOrEqual(10);
    // The write left its graph in the cache under the version it committed.
    const now = comparableState(await served());
    expect(now).toEqual(comparableState(await loadRoutingState(t.ctx.db, tenant)));
  });

  it('a change of nothing the graph reads keeps the version (the cache stays warm)', async () => {
    const before = await version();
    await ok(await call('PATCH', `/users/${agent.id}`, admin.token, { email: `agent-${Date.now()}@example.test` }));
    expect(await version()).toBe(before);
  });

  describe('every source of the graph moves the version', () => {
    it('routing writes: an IVR, a call flow, a queue and its members', async () => {
      await servedFreshAfter(() => call('POST', '/ivrs', admin.token, { pbx_id: tenant.pbxId, name: 'Night menu', announcement: ids.welcome }));
      await servedFreshAfter(() => call('PATCH', `/call-flows/${ids.flow}`, admin.token, { name: 'Main line' }));
      const other = await createUser(t.ctx, { tenant, fields: { first_name: 'Otto', last_name: 'Other' } });
      await servedFreshAfter(() =>
        call('PATCH', `/queues/${ids.queue}`, admin.token, {
          members: [
            { type: 'user', id: agent.id },
            { type: 'user', id: other.id },
          ],
        }),
      );
    });

    it('users: created, renamed, disabled, deleted (the directory)', async () => {
      let user: TestUser | undefined;
      await servedFreshAfter(async () => (user = await createUser(t.ctx, { tenant, fields: { first_name: 'Nina', last_name: 'New' } })));
      await servedFreshAfter(() => call('PATCH', `/users/${user!.id}`, admin.token, { first_name: 'Nora' }).then(ok));
      await servedFreshAfter(() => call('PATCH', `/users/${agent.id}`, admin.token, { status: 'disabled' }).then(ok));
      await servedFreshAfter(() => call('PATCH', `/users/${agent.id}`, admin.token, { status: 'active' }).then(ok));
      await servedFreshAfter(() => call('DELETE', `/users/${user!.id}`, admin.token).then((r) => ok(r, 204)));
    });

    it('do not disturb (the directory)', async () => {
      // A rule for every external call (the API's rules name a caller identity; the directory's own writers make this one).
      const rule = randomUUID();
      await servedFreshAfter(() =>
        t.ctx.db
          .insertInto('user_dnds')
          .values({
            id: rule,
            pbx_id: tenant.pbxId,
            user_id: agent.id,
            rule_key: 'external::',
            type: 'external',
            caller_identity_id: null,
            extension_id: null,
            status: 1,
            created_at: NOW,
            updated_at: NOW,
          })
          .execute(),
      );
      const simulated = await call('POST', '/call-routing/simulate', admin.token, { number: NUMBER, at: OPEN });
      expect(simulated.body).toContain('has do not disturb on');
      await servedFreshAfter(() => t.ctx.db.updateTable('user_dnds').set({ status: 0 }).where('id', '=', rule).execute());
      await servedFreshAfter(() => t.ctx.db.updateTable('user_dnds').set({ status: 1 }).where('id', '=', rule).execute());
      await servedFreshAfter(() => call('DELETE', `/users/${agent.id}/dnds/${rule}`, admin.token).then((r) => ok(r, 204)));
    });

    it('extensions: created, changed, deleted (the directory)', async () => {
      let extension = '';
      await servedFreshAfter(async () => (extension = (await createExtension(t.ctx, tenant, { number: '240', name: 'Desk' })).id));
      await servedFreshAfter(() => call('PATCH', `/extensions/${extension}`, admin.token, { name: 'Front desk' }).then(ok));
      await servedFreshAfter(() => call('PATCH', `/extensions/${extension}`, admin.token, { user_id: agent.id }).then(ok));
      await servedFreshAfter(() => call('DELETE', `/extensions/${extension}`, admin.token).then((r) => ok(r, 204)));
    });

    it('phone numbers: created, repointed, deleted (the directory)', async () => {
      let number = '';
      await servedFreshAfter(async () => {
        const response = await call('POST', '/phone-numbers', admin.token, { number: '+35227555001', destination_type: 'queue', destination_id: ids.queue });
        await ok(response, 201);
        number = response.json<{ data: { id: string } }>().data.id;
      });
      await servedFreshAfter(() =>
        call('PATCH', `/phone-numbers/${number}`, admin.token, { destination_type: 'call_flow', destination_id: ids.flow }).then(ok),
      );
      await servedFreshAfter(() => call('DELETE', `/phone-numbers/${number}`, admin.token).then((r) => ok(r, 204)));
    });

    it('sound files: created, renamed, deleted (routing, outside the guarded writes)', async () => {
      let sound = '';
      await servedFreshAfter(async () => (sound = await createSoundFile(t.ctx, tenant, 'music', { name: 'Hold' })));
      await servedFreshAfter(() => call('PATCH', `/sound-files/${sound}`, admin.token, { name: 'Hold music' }).then(ok));
      await servedFreshAfter(() => call('DELETE', `/sound-files/${sound}`, admin.token).then((r) => ok(r, 204)));
    });

    it("the PBX's half-day split (workforce settings), time zone and country", async () => {
      await servedFreshAfter(() => call('PATCH', `/${tenant.pbxId}/workforce-settings`, admin.token, { half_day_split: '13:30' }).then(ok));
      await servedFreshAfter(() => t.ctx.db.updateTable('pbxes').set({ timezone: 'Europe/Berlin' }).where('id', '=', tenant.pbxId).execute());
      await servedFreshAfter(() => t.ctx.db.updateTable('pbxes').set({ country_code: 'DE' }).where('id', '=', tenant.pbxId).execute());
    });

    it('any writer at all: SQL by hand (a job, a seed, a script), inserts, updates and deletes', async () => {
      await servedFreshAfter(() => sql`update users set last_name = 'Changed' where id = ${agent.id}`.execute(t.ctx.db));
      await servedFreshAfter(() => sql`update queue_members set penalty = 3 where queue_id = ${ids.queue}`.execute(t.ctx.db));
      await servedFreshAfter(() => sql`delete from queue_members where queue_id = ${ids.queue}`.execute(t.ctx.db));
    });
  });
});

describe('the routing graph cache across instances on one database', () => {
  let shared: Awaited<ReturnType<typeof openSharedEmptyDatabase>>;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    shared = await openSharedEmptyDatabase(2);
    await migrateToLatest(shared.handles[0].db);
    if (process.env.TEST_DB === 'postgres') await migrateToLatest(shared.handles[1].db);
    a = await buildTestApp({ database: shared.handles[0] });
    b = await buildTestApp({ database: shared.handles[1] });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await shared.close();
  });

  it('a change made through another instance is seen at the next request', async () => {
    const admin = await createAdmin(a.ctx);
    const agent = await createUser(a.ctx, { tenant: admin.tenant, fields: { first_name: 'Anna', last_name: 'Agent' } });
    await routing(a, admin, agent);
    const simulate = (app: TestApp) =>
      apiCaller(() => app)('POST', '/call-routing/simulate', admin.token, { number: NUMBER, at: OPEN }).then((r) =>
        r.json<{ data: { steps: Array<{ reason: string }> } }>(),
      );
    const validate = (app: TestApp) =>
      apiCaller(() => app)('POST', '/call-routing/validate', admin.token, {}).then((r) => r.json<{ data: { valid: boolean } }>());
    expect(JSON.stringify(await simulate(a))).toContain('Anna Agent answers');
    expect((await validate(a)).data.valid).toBe(true);

    // Instance B renames and then disables the agent; A, which cached the graph, answers with both.
    expect((await apiCaller(() => b)('PATCH', `/users/${agent.id}`, admin.token, { first_name: 'Hanna' })).statusCode).toBe(200);
    expect(JSON.stringify(await simulate(a))).toContain('Hanna Agent answers');
    expect((await apiCaller(() => b)('PATCH', `/users/${agent.id}`, admin.token, { status: 'disabled' })).statusCode).toBe(200);
    expect(JSON.stringify(await simulate(a))).toContain('Hanna Agent is disabled');
    expect((await validate(a)).data.valid).toBe(false);

    // A routing write on B (checked against B's cache), then A's write checks against the graph B left.
    const queues = await apiCaller(() => b)('GET', '/queues', admin.token);
    const queue = queues.json<{ data: Array<{ id: string }> }>().data[0].id;
    expect((await apiCaller(() => b)('PATCH', `/queues/${queue}`, admin.token, { overflow: { type: 'voicemail', id: agent.id } })).statusCode).toBe(200);
    expect((await validate(a)).data.valid).toBe(true);
    expect((await apiCaller(() => a)('PATCH', `/queues/${queue}`, admin.token, { overflow: { type: 'hangup' } })).statusCode).toBe(422);
  });
});
