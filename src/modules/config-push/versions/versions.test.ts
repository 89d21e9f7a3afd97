import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from '../../../../test/helpers.js';
import { createAdmin, createTenant, createUser } from '../../../../test/factories.js';
import { seedDemo } from '../../../demo-seed.js';

describe('configuration versions and rollback', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({ env: { JOB_WORKER: 'false', AMI_EVENTS: 'false' } });
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST', url: string, token: string) => t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token) });

  it('lists every push as a version, reads one with its files, and rolls back to it as a new version', async () => {
    const tenant = await createTenant(t.ctx);
    const admin = await createAdmin(t.ctx, tenant);
    const first = (await call('POST', '/pbx/configuration/push', admin.token)).json().data;
    await t.app.jobs.drain();
    t.clock.advance(60);
    const second = (await call('POST', '/pbx/configuration/push', admin.token)).json().data;
    await t.app.jobs.drain();

    const list = await call('GET', '/pbx/configuration/versions', admin.token);
    expect(list.statusCode).toBe(200);
    const versions = list.json().data;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(versions[1]).toMatchObject({ id: first.id, status: 'done', diff_summary: { base_version: null } });
    expect(versions[0]).toMatchObject({ id: second.id, status: 'done', diff_summary: { base_version: 1, additions: 0, deletions: 0 } });
    expect(versions[0].files.map((f: { name: string }) => f.name)).toContain('extensions.conf');
    expect(versions[0].files[0]).toEqual({ name: expect.any(String), sha256: expect.stringMatching(/^[0-9a-f]{64}$/), bytes: expect.any(Number) });
    expect((await call('GET', '/pbx/configuration/versions?filter[status]=failed', admin.token)).json().data).toEqual([]);
    expect(
      (await call('GET', '/pbx/configuration/versions?sort=version&perPage=1', admin.token)).json().data.map((v: { version: number }) => v.version),
    ).toEqual([1]);

    const detail = (await call('GET', '/pbx/configuration/versions/1', admin.token)).json().data;
    expect(detail).toMatchObject({ id: first.id, version: 1 });
    expect(detail.files.every((f: { content: unknown }) => typeof f.content === 'string')).toBe(true);
    expect(JSON.parse(detail.manifest)).toMatchObject({ version: 1, hash: detail.hash });
    expect((await call('GET', '/pbx/configuration/versions/99', admin.token)).json()).toEqual({ message: ['No such configuration version.'] });

    // A rollback counts against the one-a-minute limit.
    expect((await call('POST', '/pbx/configuration/versions/1/rollback', admin.token)).statusCode).toBe(429);
    t.clock.advance(60);
    const rollback = await call('POST', '/pbx/configuration/versions/1/rollback', admin.token);
    expect(rollback.statusCode).toBe(202);
    expect(rollback.json().data).toMatchObject({ version: 3, rollback_of: 1, status: 'queued', hash: detail.hash });
    await t.app.jobs.drain();
    const third = (await call('GET', '/pbx/configuration/versions/3', admin.token)).json().data;
    expect(third.status).toBe('done');
    expect(third.files).toEqual(detail.files);
    const audit = await t.ctx.db.selectFrom('audit_events').select(['action', 'details']).where('pbx_id', '=', tenant.pbxId).orderBy('created_at').execute();
    expect(audit.map((entry) => entry.action)).toEqual(['configuration.pushed', 'configuration.pushed', 'configuration.rolled_back']);
    expect(JSON.parse(audit[2].details)).toMatchObject({ version: 3, rollback_of: 1 });

    t.clock.advance(60);
    expect((await call('POST', '/pbx/configuration/versions/42/rollback', admin.token)).statusCode).toBe(404);
    expect((await call('POST', '/pbx/configuration/versions/abc/rollback', admin.token)).statusCode).toBe(422);
    const member = await createUser(t.ctx, { tenant });
    expect((await call('POST', '/pbx/configuration/versions/1/rollback', member.token)).statusCode).toBe(403);
    expect((await call('GET', '/pbx/configuration/versions/1', member.token)).statusCode).toBe(403);
  });

  it('seeds a pushed version for the first demo tenant and one change it has not received', async () => {
    const { seed } = await seedDemo(t.ctx);
    const [a, b] = seed.tenants;
    expect(a.samples.config_version).toBe(1);
    const row = await t.ctx.db.selectFrom('config_versions').selectAll().where('pbx_id', '=', a.pbx_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ id: a.samples.config_push, version: 1, status: 'done', engine: 'simulated' });
    expect(await t.ctx.db.selectFrom('config_versions').select('id').where('pbx_id', '=', b.pbx_id).execute()).toEqual([]);
    const admin = await createAdmin(t.ctx, { pbxId: a.pbx_id });
    const status = (await call('GET', '/pbx/configuration/status', admin.token)).json().data;
    expect(status).toMatchObject({ last_pushed_version: 1, has_unpushed_changes: true });
  });
});
