import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../test/helpers.js';
import { createAdmin, createTenant } from '../../../test/factories.js';
import { createCallFlow, createSoundFile } from '../../../test/routing-factories.js';
import { failAfterNextPublish, storedEvents } from '../../../test/live-events.js';

const CALL_FLOW = 'App\\Models\\CallFlow';

describe('live events of routing changes', () => {
  const t = useTestApp();
  const call = apiCaller(() => t);

  async function setup() {
    const tenant = await createTenant(t.ctx);
    const admin = await createAdmin(t.ctx, tenant);
    return { tenant, admin };
  }
  /** What each event said: kind, subject and data, and that every one went to the tenant. */
  async function said(pbxId: string) {
    const events = await storedEvents(t.ctx, pbxId);
    for (const event of events) expect(event.audience).toEqual({ scope: 'tenant' });
    return events.map((event) => [event.kind, event.subject.id, event.data]);
  }

  it('publishes routing.queue_changed as a queue is created, changed, deleted and restored', async () => {
    const { tenant, admin } = await setup();
    const id = (await call('POST', '/queues', admin.token, { name: 'Support' })).json().data.id as string;
    expect((await call('PATCH', `/queues/${id}`, admin.token, { name: 'Support desk' })).statusCode).toBe(200);
    expect((await call('DELETE', `/queues/${id}`, admin.token)).statusCode).toBe(204);
    expect((await call('POST', `/queues/${id}/restore`, admin.token)).statusCode).toBe(200);
    expect(await said(tenant.pbxId)).toEqual([
      ['routing.queue_changed', id, { action: 'created', name: 'Support' }],
      ['routing.queue_changed', id, { action: 'updated', name: 'Support desk' }],
      ['routing.queue_changed', id, { action: 'deleted', name: 'Support desk' }],
      ['routing.queue_changed', id, { action: 'restored', name: 'Support desk' }],
    ]);
  });

  it('publishes routing.ivr_changed for the menu and for each of its steps, and routing.call_flow_changed; nothing for a refused delete', async () => {
    const { tenant, admin } = await setup();
    const flow = await createCallFlow(t.ctx, tenant, 'Opening hours');
    const announcement = await createSoundFile(t.ctx, tenant, 'announcement');
    const ivr = (await call('POST', '/ivrs', admin.token, { pbx_id: tenant.pbxId, name: 'Main menu', announcement })).json().data.id as string;
    const step = (await call('POST', `/ivrs/${ivr}/steps`, admin.token, { option: '1', target_type: CALL_FLOW, target_id: flow })).json().data.id as string;
    // The flow is in use by the step: refused (409), no event.
    expect((await call('DELETE', `/call-flows/${flow}`, admin.token)).statusCode).toBe(409);
    expect((await call('DELETE', `/ivrs/${ivr}/steps/${step}`, admin.token)).statusCode).toBe(204);
    expect((await call('DELETE', `/call-flows/${flow}`, admin.token)).statusCode).toBe(204);
    expect(await said(tenant.pbxId)).toEqual([
      ['routing.call_flow_changed', flow, { action: 'created', name: 'Opening hours' }],
      ['routing.ivr_changed', ivr, { action: 'created', name: 'Main menu', step: null }],
      ['routing.ivr_changed', ivr, { action: 'updated', name: 'Main menu', step: { id: step, option: '1', action: 'created' } }],
      ['routing.ivr_changed', ivr, { action: 'updated', name: 'Main menu', step: { id: step, option: '1', action: 'deleted' } }],
      ['routing.call_flow_changed', flow, { action: 'deleted', name: 'Opening hours' }],
    ]);
  });

  it('leaves neither the queue nor its event when the write fails after the publish', async () => {
    const { tenant, admin } = await setup();
    const spy = failAfterNextPublish(t.ctx);
    try {
      expect((await call('POST', '/queues', admin.token, { name: 'Never' })).statusCode).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect((await call('GET', '/queues', admin.token)).json().data).toEqual([]);
    expect(await storedEvents(t.ctx, tenant.pbxId)).toEqual([]);
  });
});
