import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../test/helpers.js';
import { createAdmin, createUser } from '../../../test/factories.js';
import { failAfterNextPublish, storedEvents } from '../../../test/live-events.js';

/** A user's state as live events: DND rules, forwards and the in-call flag, each change with its event, in its transaction. */
describe('live events of a user’s state', () => {
  const t = useTestApp();
  const call = apiCaller(() => t);

  /** A change made while the next publish fails after storing its event: it must leave nothing behind. */
  async function failing<T>(change: () => Promise<T>): Promise<T> {
    const spy = failAfterNextPublish(t.ctx);
    try {
      return await change();
    } finally {
      spy.mockRestore();
    }
  }

  it('publishes user.dnd_changed with every rule of the user after each change, to the user and the administrators', async () => {
    const user = await createUser(t.ctx);
    const admin = await createAdmin(t.ctx, user.tenant);
    const created = await call('POST', `/users/${user.id}/dnds`, user.token, { type: 'internal', status: true });
    expect(created.statusCode, created.body).toBe(201);
    const rule = created.json().data;
    const replaced = await call('PUT', `/users/${user.id}/dnds/${rule.id}`, admin.token, { status: false });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect((await call('DELETE', `/users/${user.id}/dnds/${rule.id}`, user.token)).statusCode).toBe(204);

    const events = await storedEvents(t.ctx, user.pbxId);
    expect(events.map((event) => [event.kind, event.subject, event.audience])).toEqual(
      Array(3).fill(['user.dnd_changed', { type: 'user', id: user.id }, { scope: 'users', userIds: [user.id] }]),
    );
    expect(events.map((event) => event.data)).toEqual([
      { user_id: user.id, dnd: true, rules: [rule] },
      { user_id: user.id, dnd: false, rules: [{ ...rule, status: false }] },
      { user_id: user.id, dnd: false, rules: [] },
    ]);
  });

  it('publishes one user.dnd_changed for a bulk change, and none for a rule whose change failed', async () => {
    const user = await createUser(t.ctx);
    const bulk = await call('POST', `/users/${user.id}/dnds/bulk`, user.token, { dnds: [{ type: 'internal', status: true }] });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const refused = await failing(() => call('POST', `/users/${user.id}/dnds/bulk`, user.token, { dnds: [{ type: 'internal', status: false }] }));
    expect(refused.statusCode).toBe(500);
    const rules = await call('GET', `/users/${user.id}/dnds`, user.token);
    expect(rules.json().data).toMatchObject([{ type: 'internal', status: true }]);
    const events = await storedEvents(t.ctx, user.pbxId);
    expect(events.map((event) => [event.kind, (event.data as { dnd: boolean }).dnd])).toEqual([['user.dnd_changed', true]]);
  });

  it('publishes user.forward_changed with every forward after a create, update and delete; a failed create leaves neither forward nor event', async () => {
    const user = await createUser(t.ctx);
    const refused = await failing(() => call('POST', `/users/${user.id}/forwards`, user.token, { type: 'busy', destination_type: 'voicemail' }));
    expect(refused.statusCode).toBe(500);
    expect((await call('GET', `/users/${user.id}/forwards`, user.token)).json().data).toEqual([]);
    expect(await storedEvents(t.ctx, user.pbxId)).toEqual([]);

    const created = await call('POST', `/users/${user.id}/forwards`, user.token, { type: 'busy', destination_type: 'voicemail' });
    expect(created.statusCode, created.body).toBe(201);
    const forward = created.json().data;
    const updated = await call('PATCH', `/users/${user.id}/forwards/${forward.id}`, user.token, { enabled: false });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await call('DELETE', `/users/${user.id}/forwards/${forward.id}`, user.token)).statusCode).toBe(204);

    const events = await storedEvents(t.ctx, user.pbxId);
    expect(events.map((event) => [event.kind, event.subject, event.audience])).toEqual(
      Array(3).fill(['user.forward_changed', { type: 'user', id: user.id }, { scope: 'users', userIds: [user.id] }]),
    );
    expect(events.map((event) => event.data)).toEqual([
      { user_id: user.id, forwards: [forward] },
      { user_id: user.id, forwards: [updated.json().data] },
      { user_id: user.id, forwards: [] },
    ]);
  });

  it('publishes user.in_call_changed for each report, as the flag then reads; a failed report changes nothing', async () => {
    const user = await createUser(t.ctx);
    const reported = await call('POST', '/in-call', user.token, { in_call: true, ttl_seconds: 600 });
    expect(reported.statusCode, reported.body).toBe(200);
    const refused = await failing(() => call('POST', '/in-call', user.token, { in_call: false }));
    expect(refused.statusCode).toBe(500);
    expect((await call('GET', '/in-call', user.token)).json().data).toEqual(reported.json().data);

    const events = await storedEvents(t.ctx, user.pbxId);
    expect(events.map((event) => [event.kind, event.subject, event.audience, event.data])).toEqual([
      ['user.in_call_changed', { type: 'user', id: user.id }, { scope: 'users', userIds: [user.id] }, reported.json().data],
    ]);
  });
});
