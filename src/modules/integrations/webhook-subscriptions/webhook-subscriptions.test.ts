import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createKey, createUser } from '../../../../test/factories.js';
import { defineEventKind } from '../../../platform/events/index.js';

defineEventKind({
  kind: 'test_subscriptions.pinged',
  subject: 'gadget',
  description: 'A gadget was pinged (tests).',
  data: Type.Object({}),
  pbxKey: false,
});
defineEventKind({
  kind: 'test_subscriptions.dropped',
  subject: 'gadget',
  description: 'A gadget was dropped (tests).',
  data: Type.Object({}),
  pbxKey: false,
});

/** A public address (TEST-NET-3): no DNS, and the URL guard lets it through. */
const URL_OK = 'https://203.0.113.10/hooks/pbx';

describe('webhook subscriptions', () => {
  const t = useTestApp({ config: { jobWorkerEnabled: false, webhookAllowPrivate: false } });
  const call = apiCaller(() => t);

  it('creates, lists, reads, changes and deletes a subscription (administrators)', async () => {
    const admin = await createAdmin(t.ctx);
    const created = await call('POST', '/webhook-subscriptions', admin.token, {
      url: URL_OK,
      kinds: ['test_subscriptions.*'],
      filters: { subject_type: 'gadget' },
      description: 'Gadget watcher',
    });
    expect(created.statusCode).toBe(201);
    const subscription = created.json().data;
    expect(subscription).toEqual({
      id: expect.any(String),
      url: URL_OK,
      kinds: ['test_subscriptions.*'],
      filters: { subject_type: 'gadget', subject_id: null },
      description: 'Gadget watcher',
      active: true,
      user_id: admin.id,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });

    const second = await call('POST', '/webhook-subscriptions', admin.token, { url: `${URL_OK}/2`, kinds: ['test_subscriptions.pinged'] });
    expect(second.statusCode).toBe(201);
    expect(second.json().data).toMatchObject({ filters: { subject_type: null, subject_id: null }, description: null });

    const list = await call('GET', '/webhook-subscriptions?perPage=1&sort=url', admin.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((s: { id: string }) => s.id)).toEqual([subscription.id]);
    expect(list.json().meta).toMatchObject({ current_page: 1, per_page: 1, total: 2, last_page: 2 });

    const one = await call('GET', `/webhook-subscriptions/${subscription.id}`, admin.token);
    expect(one.json()).toEqual({ data: subscription });

    t.clock.advance(60);
    const paused = await call('PATCH', `/webhook-subscriptions/${subscription.id}`, admin.token, {
      active: false,
      kinds: ['test_subscriptions.dropped'],
      filters: { subject_id: 'g-1' },
      description: null,
    });
    expect(paused.statusCode).toBe(200);
    expect(paused.json().data).toMatchObject({
      active: false,
      kinds: ['test_subscriptions.dropped'],
      filters: { subject_type: null, subject_id: 'g-1' },
      description: null,
      url: URL_OK,
      updated_at: t.clock.now().toISOString(),
    });
    expect((await call('GET', '/webhook-subscriptions?filter[active]=false', admin.token)).json().data.map((s: { id: string }) => s.id)).toEqual([
      subscription.id,
    ]);
    expect((await call('GET', '/webhook-subscriptions?filter[active]=true', admin.token)).json().data.map((s: { id: string }) => s.id)).toEqual([
      second.json().data.id,
    ]);
    // Another administrator of the PBX manages it too; it stays its creator's.
    const colleague = await createAdmin(t.ctx, admin.tenant);
    const resumed = await call('PATCH', `/webhook-subscriptions/${subscription.id}`, colleague.token, { active: true });
    expect(resumed.json().data).toMatchObject({ active: true, user_id: admin.id });

    expect((await call('DELETE', `/webhook-subscriptions/${subscription.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `/webhook-subscriptions/${subscription.id}`, admin.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/webhook-subscriptions/${subscription.id}`, admin.token)).statusCode).toBe(404);
  });

  it('refuses bad input with 422 naming the field: unknown kinds by name, bad patterns, private or non-http URLs, unknown subject types', async () => {
    const admin = await createAdmin(t.ctx);
    const post = (payload: object) => call('POST', '/webhook-subscriptions', admin.token, payload);

    const unknown = await post({ url: URL_OK, kinds: ['test_subscriptions.pinged', 'nope.kind', 'test_subscriptions.missing', 'nothing.*'] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ kinds: ['Unknown event kinds: nope.kind, test_subscriptions.missing, nothing.*.'] });

    for (const [payload, field] of [
      [{ kinds: ['test_subscriptions.pinged'] }, 'url'],
      [{ url: 'not a url', kinds: ['test_subscriptions.pinged'] }, 'url'],
      [{ url: URL_OK }, 'kinds'],
      [{ url: URL_OK, kinds: [] }, 'kinds'],
      [{ url: URL_OK, kinds: ['Test.Pinged'] }, 'kinds.0'],
      [{ url: URL_OK, kinds: ['test_subscriptions'] }, 'kinds.0'],
      [{ url: URL_OK, kinds: ['*'] }, 'kinds.0'],
      [{ url: URL_OK, kinds: ['test_subscriptions.pinged', 'test_subscriptions.pinged'] }, 'kinds'],
      [{ url: URL_OK, kinds: ['test_subscriptions.pinged'], filters: { subject: 'gadget' } }, 'filters.subject'],
      [{ url: URL_OK, kinds: ['test_subscriptions.pinged'], colour: 'red' }, 'colour'],
    ] as const) {
      const response = await post(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(response.json().errors), JSON.stringify(payload)).toContain(field);
    }

    for (const url of ['ftp://203.0.113.10/x', 'http://127.0.0.1:9/hook', 'http://localhost/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest']) {
      const response = await post({ url, kinds: ['test_subscriptions.pinged'] });
      expect(response.statusCode, url).toBe(422);
      expect(response.json().errors.url[0], url).toMatch(/^The url is not allowed: /);
    }

    // Every bad field at once.
    const several = await post({ url: 'http://10.0.0.1/hook', kinds: ['nope.kind'], filters: { subject_type: 'spaceship' } });
    expect(several.statusCode).toBe(422);
    expect(Object.keys(several.json().errors).sort()).toEqual(['filters.subject_type', 'kinds', 'url']);

    const created = (await post({ url: URL_OK, kinds: ['test_subscriptions.pinged'] })).json().data;
    const patch = (payload: object) => call('PATCH', `/webhook-subscriptions/${created.id}`, admin.token, payload);
    expect((await patch({ kinds: ['nope.*'] })).json().errors).toEqual({ kinds: ['Unknown event kinds: nope.*.'] });
    expect((await patch({ url: 'http://192.168.1.1/' })).statusCode).toBe(422);
    expect((await patch({ active: 'yes' })).statusCode).toBe(422);
    expect((await patch({ user_id: admin.id })).statusCode).toBe(422);
    expect((await call('GET', `/webhook-subscriptions/${created.id}`, admin.token)).json().data).toEqual(created);
    expect((await call('GET', '/webhook-subscriptions/not-a-uuid', admin.token)).statusCode).toBe(422);
    expect((await call('GET', '/webhook-subscriptions?sort=kinds', admin.token)).statusCode).toBe(422);
    expect((await call('GET', `/webhook-subscriptions/${randomUUID()}`, admin.token)).statusCode).toBe(404);
  });

  it('is for administrators: a user or an API key of the PBX is 403, another PBX’s administrator 404', async () => {
    const admin = await createAdmin(t.ctx);
    const created = (await call('POST', '/webhook-subscriptions', admin.token, { url: URL_OK, kinds: ['test_subscriptions.pinged'] })).json().data;
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const keys = [
      await createKey(t.ctx, admin.tenant, 'pbx'),
      await createKey(t.ctx, admin.tenant, 'integration', ['contacts', 'call-history', 'phone-numbers', 'push-configuration', 'call-routing']),
    ];
    const item = `/webhook-subscriptions/${created.id}`;
    const requests = [
      ['GET', '/webhook-subscriptions', undefined],
      ['POST', '/webhook-subscriptions', { url: URL_OK, kinds: ['test_subscriptions.pinged'] }],
      ['GET', item, undefined],
      ['PATCH', item, { active: false }],
      ['DELETE', item, undefined],
    ] as const;
    for (const token of [user.token, ...keys]) {
      for (const [method, url, payload] of requests) expect((await call(method, url, token, payload)).statusCode, `${method} ${url}`).toBe(403);
    }

    const stranger = await createAdmin(t.ctx);
    for (const [method, url, payload] of requests.slice(2)) expect((await call(method, url, stranger.token, payload)).statusCode, `${method} ${url}`).toBe(404);
    expect((await call('GET', '/webhook-subscriptions', stranger.token)).json().data).toEqual([]);
    expect((await call('GET', item, admin.token)).json().data).toEqual(created);
  });
});
