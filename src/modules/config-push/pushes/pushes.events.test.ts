import { describe, expect, it } from 'vitest';
import { bearer, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createTenant } from '../../../../test/factories.js';
import { failAfterNextPublish, storedEvents } from '../../../../test/live-events.js';
import { pushJob } from './push-job.js';

describe('live events of configuration pushes', () => {
  const t = useTestApp({ env: { JOB_WORKER: 'false', AMI_EVENTS: 'false' } });
  const request = (method: 'GET' | 'POST', url: string, token: string) => t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token) });

  async function tenantWithAdmin() {
    const tenant = await createTenant(t.ctx);
    return { tenant, admin: await createAdmin(t.ctx, tenant) };
  }

  it('publishes each step of a push to the administrators: queued, delivering, reloading, done, the push as its GET shows it', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    t.clock.advance(61);
    const queued = await request('POST', '/pbx/configuration/push', admin.token);
    expect(queued.statusCode, queued.body).toBe(202);
    const id = queued.json().data.id as string;
    expect((await storedEvents(t.ctx, tenant.pbxId)).map((event) => event.data)).toEqual([queued.json().data]);

    await t.app.jobs.drain();
    const events = await storedEvents(t.ctx, tenant.pbxId);
    expect(events.map((event) => [event.kind, event.subject, event.audience, (event.data as { status: string }).status])).toEqual(
      ['queued', 'delivering', 'reloading', 'done'].map((status) => [
        'configuration.push_progress',
        { type: 'configuration_push', id },
        { scope: 'admins' },
        status,
      ]),
    );
    expect(events[3].data).toEqual((await request('GET', `/pbx/configuration/pushes/${id}`, admin.token)).json().data);
  });

  it('publishes the failure of a push that ran out of attempts, with the reason', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    t.clock.advance(61);
    const id = (await request('POST', '/pbx/configuration/push', admin.token)).json().data.id as string;
    await pushJob.onExhausted!(t.ctx, { pbxId: tenant.pbxId, pushId: id }, 'The PBX could not be reached.', { info: () => undefined, warn: () => undefined });
    const [, failed] = await storedEvents(t.ctx, tenant.pbxId);
    expect(failed.data).toMatchObject({ id, status: 'failed', reason: 'The PBX could not be reached.', finished_at: expect.any(String) });
  });

  it('leaves neither a version nor an event behind when the push fails after its publish', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    t.clock.advance(61);
    const spy = failAfterNextPublish(t.ctx);
    try {
      expect((await request('POST', '/pbx/configuration/push', admin.token)).statusCode).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect(await t.ctx.db.selectFrom('config_versions').select('id').where('pbx_id', '=', tenant.pbxId).execute()).toEqual([]);
    expect(await storedEvents(t.ctx, tenant.pbxId)).toEqual([]);
  });
});
