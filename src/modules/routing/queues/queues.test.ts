import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createExtension, createKey, createTenant, createUser } from '../../../../test/factories.js';
import { createCallFlow, createIvr, createSoundFile } from '../../../../test/routing-factories.js';

describe('queues', () => {
  const t = useTestApp();

  const call = apiCaller(() => t);
  const now = () => t.clock.now().toISOString();

  const errorsOf = async (method: 'POST' | 'PATCH', url: string, token: string, body: object) => {
    const res = await call(method, url, token, body);
    expect(res.statusCode, JSON.stringify(res.json())).toBe(422);
    return res.json().errors as Record<string, string[]>;
  };

  it('creates a queue with the defaults, in the exact shape', async () => {
    const admin = await createAdmin(t.ctx);
    const res = await call('POST', '/queues', admin.token, { name: 'Support' });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({
      id: expect.any(String),
      pbx_id: admin.pbxId,
      name: 'Support',
      strategy: 'ringall',
      max_wait_seconds: 300,
      max_callers: null,
      member_timeout_seconds: 20,
      wrap_up_seconds: 10,
      music_on_hold_id: null,
      announcement_id: null,
      overflow: { type: 'hangup', id: null, number: null },
      members: [],
      created_at: now(),
      updated_at: now(),
      deleted_at: null,
    });
    const read = await call('GET', `/queues/${data.id}`, admin.token);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ data });
  });

  it('creates a queue with everything, members in the order given with their penalties', async () => {
    const admin = await createAdmin(t.ctx);
    const agent = await createUser(t.ctx, { tenant: admin.tenant });
    const disabled = await createUser(t.ctx, { tenant: admin.tenant });
    await t.ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', disabled.id).execute();
    const ext = await createExtension(t.ctx, admin.tenant, { number: '301', name: 'Front desk' });
    const music = await createSoundFile(t.ctx, admin.tenant, 'music');
    const announcement = await createSoundFile(t.ctx, admin.tenant, 'announcement');
    const res = await call('POST', '/queues', admin.token, {
      name: 'Sales',
      strategy: 'least_recent',
      max_wait_seconds: 7200,
      max_callers: 500,
      member_timeout_seconds: 120,
      wrap_up_seconds: 600,
      music_on_hold_id: music,
      announcement_id: announcement,
      overflow: { type: 'voicemail', id: agent.id },
      members: [
        { type: 'extension', id: ext.id, penalty: 5 },
        { type: 'user', id: agent.id },
        { type: 'user', id: disabled.id, penalty: 100 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      name: 'Sales',
      strategy: 'least_recent',
      max_wait_seconds: 7200,
      max_callers: 500,
      member_timeout_seconds: 120,
      wrap_up_seconds: 600,
      music_on_hold_id: music,
      announcement_id: announcement,
      overflow: { type: 'voicemail', id: agent.id, number: null },
      members: [
        { type: 'extension', id: ext.id, penalty: 5, position: 1 },
        { type: 'user', id: agent.id, penalty: 0, position: 2 },
        { type: 'user', id: disabled.id, penalty: 100, position: 3 },
      ],
    });
    // The lower bounds are accepted too.
    const low = await call('POST', '/queues', admin.token, { name: 'x', max_wait_seconds: 10, max_callers: 1, member_timeout_seconds: 5, wrap_up_seconds: 0 });
    expect(low.statusCode).toBe(201);
  });

  it('refuses values outside each limit and enum (422 naming the field)', async () => {
    const admin = await createAdmin(t.ctx);
    const ext = await createExtension(t.ctx, admin.tenant);
    const cases: Array<[object, string]> = [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(129) }, 'name'],
      [{ name: 'Q', strategy: 'linear' }, 'strategy'],
      [{ name: 'Q', max_wait_seconds: 9 }, 'max_wait_seconds'],
      [{ name: 'Q', max_wait_seconds: 7201 }, 'max_wait_seconds'],
      [{ name: 'Q', max_callers: 0 }, 'max_callers'],
      [{ name: 'Q', max_callers: 501 }, 'max_callers'],
      [{ name: 'Q', member_timeout_seconds: 4 }, 'member_timeout_seconds'],
      [{ name: 'Q', member_timeout_seconds: 121 }, 'member_timeout_seconds'],
      [{ name: 'Q', wrap_up_seconds: -1 }, 'wrap_up_seconds'],
      [{ name: 'Q', wrap_up_seconds: 601 }, 'wrap_up_seconds'],
      [{ name: 'Q', max_wait_seconds: 12.5 }, 'max_wait_seconds'],
      [{ name: 'Q', music_on_hold_id: 'not-a-uuid' }, 'music_on_hold_id'],
      [{ name: 'Q', overflow: { type: 'voicemailbox' } }, 'overflow.type'],
      [{ name: 'Q', members: [{ type: 'group', id: ext.id }] }, 'members.0.type'],
      [{ name: 'Q', members: [{ type: 'extension', id: ext.id, penalty: 101 }] }, 'members.0.penalty'],
      [{ name: 'Q', members: [{ type: 'extension', id: ext.id, penalty: -1 }] }, 'members.0.penalty'],
      [{ name: 'Q', members: Array.from({ length: 201 }, () => ({ type: 'extension', id: ext.id })) }, 'members'],
    ];
    for (const [body, field] of cases) expect(Object.keys(await errorsOf('POST', '/queues', admin.token, body)), JSON.stringify(body)).toContain(field);
    expect(await errorsOf('POST', '/queues', admin.token, {})).toHaveProperty('name');
    const queue = (await call('POST', '/queues', admin.token, { name: 'Q' })).json().data;
    expect(await errorsOf('PATCH', `/queues/${queue.id}`, admin.token, { max_callers: 501 })).toHaveProperty('max_callers');
    expect(await errorsOf('PATCH', `/queues/${queue.id}`, admin.token, { name: '' })).toHaveProperty('name');
    // null lifts the caller limit.
    const unlimited = await call('PATCH', `/queues/${queue.id}`, admin.token, { max_callers: 20 });
    expect(unlimited.json().data.max_callers).toBe(20);
    expect((await call('PATCH', `/queues/${queue.id}`, admin.token, { max_callers: null })).json().data.max_callers).toBeNull();
  });

  it('checks members: live users and extensions of the PBX, each once; update replaces the list', async () => {
    const admin = await createAdmin(t.ctx);
    const agent = await createUser(t.ctx, { tenant: admin.tenant });
    const colleague = await createUser(t.ctx, { tenant: admin.tenant });
    const ext = await createExtension(t.ctx, admin.tenant);
    const gone = await createExtension(t.ctx, admin.tenant);
    expect((await call('DELETE', `/extensions/${gone.id}`, admin.token)).statusCode).toBe(204);
    const foreigner = await createUser(t.ctx);
    const foreignExt = await createExtension(t.ctx, foreigner.tenant);

    const errors = await errorsOf('POST', '/queues', admin.token, {
      name: 'Q',
      members: [
        { type: 'user', id: agent.id },
        { type: 'user', id: randomUUID() },
        { type: 'user', id: foreigner.id },
        { type: 'extension', id: foreignExt.id },
        { type: 'extension', id: gone.id },
        { type: 'user', id: agent.id },
        { type: 'user', id: ext.id },
        { type: 'extension', id: ext.id },
      ],
    });
    expect(errors).toEqual({
      'members.1.id': ['The selected user does not exist.'],
      'members.2.id': ['The selected user does not exist.'],
      'members.3.id': ['The selected extension does not exist.'],
      'members.4.id': ['The selected extension does not exist.'],
      'members.5.id': ['The member appears more than once in the list.'],
      'members.6.id': ['The selected user does not exist.'],
    });
    expect(await t.ctx.db.selectFrom('queues').select('id').where('pbx_id', '=', admin.pbxId).execute()).toEqual([]);

    const queue = (
      await call('POST', '/queues', admin.token, {
        name: 'Q',
        members: [
          { type: 'user', id: agent.id, penalty: 1 },
          { type: 'extension', id: ext.id },
        ],
      })
    ).json().data;
    const renamed = await call('PATCH', `/queues/${queue.id}`, admin.token, { name: 'Renamed' });
    expect(renamed.json().data.members).toHaveLength(2);
    const replaced = await call('PATCH', `/queues/${queue.id}`, admin.token, {
      members: [
        { type: 'user', id: colleague.id, penalty: 3 },
        { type: 'extension', id: ext.id, penalty: 2 },
        { type: 'user', id: agent.id },
      ],
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().data.members).toEqual([
      { type: 'user', id: colleague.id, penalty: 3, position: 1 },
      { type: 'extension', id: ext.id, penalty: 2, position: 2 },
      { type: 'user', id: agent.id, penalty: 0, position: 3 },
    ]);
    // A refused replacement leaves the list as it was.
    expect(await errorsOf('PATCH', `/queues/${queue.id}`, admin.token, { members: [{ type: 'user', id: foreigner.id }] })).toHaveProperty(['members.0.id']);
    expect((await call('GET', `/queues/${queue.id}`, admin.token)).json().data.members).toHaveLength(3);
    expect((await call('PATCH', `/queues/${queue.id}`, admin.token, { members: [] })).json().data.members).toEqual([]);
  });

  it('overflows to hangup, a user, voicemail, another queue, an IVR, a call flow or an external number', async () => {
    const tenant = await createTenant(t.ctx, { countryCode: 'DE' });
    const admin = await createAdmin(t.ctx, tenant);
    const agent = await createUser(t.ctx, { tenant });
    const ext = await createExtension(t.ctx, tenant);
    const other = (await call('POST', '/queues', admin.token, { name: 'Backup', overflow: { type: 'voicemail', id: admin.id } })).json().data;
    const ivr = await createIvr(t.ctx, tenant);
    const flow = await createCallFlow(t.ctx, tenant);
    const queue = (await call('POST', '/queues', admin.token, { name: 'Front', overflow: { type: 'hangup' } })).json().data;
    expect(queue.overflow).toEqual({ type: 'hangup', id: null, number: null });

    const kinds: Array<[object, object]> = [
      [
        { type: 'user', id: agent.id },
        { type: 'user', id: agent.id, number: null },
      ],
      [
        { type: 'extension', id: ext.id },
        { type: 'extension', id: ext.id, number: null },
      ],
      [
        { type: 'voicemail', id: agent.id, number: null },
        { type: 'voicemail', id: agent.id, number: null },
      ],
      [
        { type: 'queue', id: other.id },
        { type: 'queue', id: other.id, number: null },
      ],
      [
        { type: 'ivr', id: ivr },
        { type: 'ivr', id: ivr, number: null },
      ],
      [
        { type: 'call_flow', id: flow },
        { type: 'call_flow', id: flow, number: null },
      ],
      [
        { type: 'external', number: '030 1234567' },
        { type: 'external', id: null, number: '+49301234567' },
      ],
      [
        { type: 'hangup', id: null },
        { type: 'hangup', id: null, number: null },
      ],
    ];
    for (const [overflow, stored] of kinds) {
      const res = await call('PATCH', `/queues/${queue.id}`, admin.token, { overflow });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.overflow).toEqual(stored);
    }
    const created = await call('POST', '/queues', admin.token, { name: 'Ext', overflow: { type: 'external', number: '+352 27 12 34 56' } });
    expect(created.json().data.overflow).toEqual({ type: 'external', id: null, number: '+35227123456' });

    const url = `/queues/${queue.id}`;
    const foreign = await createUser(t.ctx);
    expect(await errorsOf('PATCH', url, admin.token, { overflow: { type: 'external', number: '12' } })).toHaveProperty(['overflow.number']);
    expect(await errorsOf('PATCH', url, admin.token, { overflow: { type: 'external' } })).toHaveProperty(['overflow.number']);
    expect(await errorsOf('PATCH', url, admin.token, { overflow: { type: 'external', id: agent.id, number: '030 1234567' } })).toHaveProperty(['overflow.id']);
    expect(await errorsOf('PATCH', url, admin.token, { overflow: { type: 'hangup', id: agent.id } })).toHaveProperty('overflow');
    expect(await errorsOf('PATCH', url, admin.token, { overflow: { type: 'user' } })).toHaveProperty(['overflow.id']);
    expect(await errorsOf('PATCH', url, admin.token, { overflow: { type: 'user', id: foreign.id } })).toHaveProperty(['overflow.id']);
    expect(await errorsOf('PATCH', url, admin.token, { overflow: { type: 'ivr', id: randomUUID() } })).toHaveProperty(['overflow.id']);
    expect(await errorsOf('PATCH', url, admin.token, { overflow: { type: 'queue', id: agent.id } })).toHaveProperty(['overflow.id']);
    expect(await errorsOf('PATCH', url, admin.token, { overflow: { type: 'user', id: agent.id, number: '030 1234567' } })).toHaveProperty(['overflow.number']);
    expect(await errorsOf('PATCH', url, admin.token, { overflow: { type: 'queue', id: queue.id } })).toEqual({
      'overflow.id': ['A queue cannot overflow into itself.'],
    });
    expect(await errorsOf('POST', '/queues', admin.token, { name: 'Q', overflow: { type: 'call_flow', id: randomUUID() } })).toHaveProperty(['overflow.id']);
    expect((await call('GET', url, admin.token)).json().data.overflow).toEqual({ type: 'hangup', id: null, number: null });
  });

  it('takes only live sound files of the PBX, of the right type', async () => {
    const admin = await createAdmin(t.ctx);
    const music = await createSoundFile(t.ctx, admin.tenant, 'music');
    const announcement = await createSoundFile(t.ctx, admin.tenant, 'announcement');
    const deleted = await createSoundFile(t.ctx, admin.tenant, 'music', { deleted: true });
    const foreign = await createSoundFile(t.ctx, await createTenant(t.ctx), 'music');
    expect(await errorsOf('POST', '/queues', admin.token, { name: 'Q', music_on_hold_id: announcement, announcement_id: music })).toEqual({
      music_on_hold_id: ['The music on hold id must be a sound file of type music.'],
      announcement_id: ['The announcement id must be a sound file of type announcement.'],
    });
    expect(await errorsOf('POST', '/queues', admin.token, { name: 'Q', music_on_hold_id: deleted })).toEqual({
      music_on_hold_id: ['The selected music on hold id is invalid.'],
    });
    expect(await errorsOf('POST', '/queues', admin.token, { name: 'Q', music_on_hold_id: foreign })).toHaveProperty('music_on_hold_id');
    // Several bad fields are answered together.
    expect(
      Object.keys(await errorsOf('POST', '/queues', admin.token, { name: 'Q', music_on_hold_id: foreign, members: [{ type: 'user', id: randomUUID() }] })),
    ).toEqual(['music_on_hold_id', 'members.0.id']);
    const queue = (await call('POST', '/queues', admin.token, { name: 'Q', music_on_hold_id: music })).json().data;
    expect(queue.music_on_hold_id).toBe(music);
    expect(await errorsOf('PATCH', `/queues/${queue.id}`, admin.token, { announcement_id: music })).toHaveProperty('announcement_id');
    const cleared = await call('PATCH', `/queues/${queue.id}`, admin.token, { music_on_hold_id: null, announcement_id: announcement });
    expect(cleared.json().data).toMatchObject({ music_on_hold_id: null, announcement_id: announcement });
  });

  it('lists with search, sort, filters and include', async () => {
    const admin = await createAdmin(t.ctx);
    const agent = await createUser(t.ctx, { tenant: admin.tenant });
    const ext = await createExtension(t.ctx, admin.tenant, { number: '444', name: 'Hotline' });
    const music = await createSoundFile(t.ctx, admin.tenant, 'music', { name: 'Jazz' });
    const announcement = await createSoundFile(t.ctx, admin.tenant, 'announcement', { name: 'Welcome' });
    const sales = (
      await call('POST', '/queues', admin.token, {
        name: 'Sales',
        strategy: 'random',
        music_on_hold_id: music,
        announcement_id: announcement,
        members: [
          { type: 'user', id: agent.id },
          { type: 'extension', id: ext.id },
        ],
      })
    ).json().data;
    t.clock.advance(60);
    const support = (await call('POST', '/queues', admin.token, { name: 'Support', members: [{ type: 'extension', id: ext.id }] })).json().data;
    t.clock.advance(60);
    const archive = (await call('POST', '/queues', admin.token, { name: 'Archive' })).json().data;
    expect((await call('DELETE', `/queues/${archive.id}`, admin.token)).statusCode).toBe(204);
    await call('POST', '/queues', (await createAdmin(t.ctx)).token, { name: 'Sales elsewhere' });

    const names = async (query: string) => {
      const res = await call('GET', `/queues${query}`, admin.token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((q: { name: string }) => q.name);
    };
    expect(await names('')).toEqual(['Sales', 'Support']);
    expect(await names('?sort=-created_at')).toEqual(['Support', 'Sales']);
    expect(await names('?search=SUPP')).toEqual(['Support']);
    expect(await names('?filter[strategy]=random')).toEqual(['Sales']);
    expect(await names(`?filter[member_id]=${ext.id}`)).toEqual(['Sales', 'Support']);
    expect(await names(`?filter[member_id]=${agent.id}`)).toEqual(['Sales']);
    expect(await names('?filter[trashed]=only')).toEqual(['Archive']);
    expect(await names('?filter[trashed]=with&sort=name')).toEqual(['Archive', 'Sales', 'Support']);
    const page = (await call('GET', '/queues?perPage=1&page=2', admin.token)).json();
    expect(page.data.map((q: { id: string }) => q.id)).toEqual([support.id]);
    expect(page.meta).toMatchObject({ total: 2 });
    for (const bad of ['?sort=strategy', '?filter[strategy]=linear', '?filter[member_id]=x', '?include=members.phone', '?filter[trashed]=all'])
      expect((await call('GET', `/queues${bad}`, admin.token)).statusCode, bad).toBe(422);

    // Nothing is embedded unless asked.
    const plain = (await call('GET', `/queues/${sales.id}`, admin.token)).json().data;
    expect(plain).not.toHaveProperty('announcement');
    expect(plain.members[0]).not.toHaveProperty('user');
    const full = (await call('GET', `/queues/${sales.id}?include=members.user,members.extension,announcement,musicOnHold`, admin.token)).json().data;
    const agentRow = await t.ctx.db.selectFrom('users').select(['first_name', 'last_name', 'email']).where('id', '=', agent.id).executeTakeFirstOrThrow();
    expect(full.members).toEqual([
      { type: 'user', id: agent.id, penalty: 0, position: 1, user: { id: agent.id, ...agentRow }, extension: null },
      { type: 'extension', id: ext.id, penalty: 0, position: 2, user: null, extension: { id: ext.id, number: '444', name: 'Hotline' } },
    ]);
    expect(full.announcement).toEqual({ id: announcement, name: 'Welcome', type: 'announcement', language: null, duration_ms: 1500 });
    expect(full.musicOnHold).toEqual({ id: music, name: 'Jazz', type: 'music', language: null, duration_ms: 1500 });
    const listed = (await call('GET', '/queues?include=members.extension,announcement', admin.token)).json().data;
    expect(listed.map((q: { announcement: { name: string } | null }) => q.announcement?.name ?? null)).toEqual(['Welcome', null]);
    expect(listed[1].members).toEqual([{ type: 'extension', id: ext.id, penalty: 0, position: 1, extension: { id: ext.id, number: '444', name: 'Hotline' } }]);
    expect(listed[0]).not.toHaveProperty('musicOnHold');
  });

  it('soft deletes and restores; a deleted queue is gone from reads and writes', async () => {
    const admin = await createAdmin(t.ctx);
    const agent = await createUser(t.ctx, { tenant: admin.tenant });
    const ext = await createExtension(t.ctx, admin.tenant);
    const queue = (
      await call('POST', '/queues', admin.token, {
        name: 'Temp',
        members: [
          { type: 'extension', id: ext.id, penalty: 4 },
          { type: 'user', id: agent.id, penalty: 2 },
        ],
      })
    ).json().data;
    t.clock.advance(60);
    expect((await call('DELETE', `/queues/${queue.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `/queues/${queue.id}`, admin.token)).statusCode).toBe(404);
    expect((await call('PATCH', `/queues/${queue.id}`, admin.token, { name: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', `/queues/${queue.id}`, admin.token)).statusCode).toBe(404);
    const trashed = (await call('GET', '/queues?filter[trashed]=only', admin.token)).json().data;
    expect(trashed).toMatchObject([{ id: queue.id, deleted_at: t.clock.now().toISOString() }]);

    // The extension was deleted meanwhile (a deleted queue does not hold it): the restore drops that member.
    expect((await call('DELETE', `/extensions/${ext.id}`, admin.token)).statusCode).toBe(204);
    const restored = await call('POST', `/queues/${queue.id}/restore`, admin.token);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ id: queue.id, deleted_at: null, members: [{ type: 'user', id: agent.id, penalty: 2, position: 1 }] });
    expect((await call('POST', `/queues/${queue.id}/restore`, admin.token)).statusCode).toBe(404);
    expect((await call('POST', `/queues/${randomUUID()}/restore`, admin.token)).statusCode).toBe(404);

    // An overflow target deleted meanwhile blocks the restore until it is back.
    const backup = (await call('POST', '/queues', admin.token, { name: 'Backup', overflow: { type: 'voicemail', id: admin.id } })).json().data;
    const front = (await call('POST', '/queues', admin.token, { name: 'Front', overflow: { type: 'queue', id: backup.id } })).json().data;
    expect((await call('DELETE', `/queues/${front.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('DELETE', `/queues/${backup.id}`, admin.token)).statusCode).toBe(204);
    const blocked = await call('POST', `/queues/${front.id}/restore`, admin.token);
    expect(blocked.statusCode).toBe(422);
    expect(blocked.json().errors).toHaveProperty(['overflow.id']);
    expect((await call('GET', '/queues?filter[trashed]=only', admin.token)).json().data.map((q: { name: string }) => q.name)).toContain('Front');
    expect((await call('POST', `/queues/${backup.id}/restore`, admin.token)).statusCode).toBe(200);
    expect((await call('POST', `/queues/${front.id}/restore`, admin.token)).statusCode).toBe(200);
  });

  it('refuses to delete a queue another queue overflows into (409 with used_by)', async () => {
    const admin = await createAdmin(t.ctx);
    const backup = (await call('POST', '/queues', admin.token, { name: 'Backup', overflow: { type: 'voicemail', id: admin.id } })).json().data;
    const front = (await call('POST', '/queues', admin.token, { name: 'Front', overflow: { type: 'queue', id: backup.id } })).json().data;
    const refused = await call('DELETE', `/queues/${backup.id}`, admin.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: 'The queue is still used by queue "Front".',
      used_by: [{ type: 'queue', id: front.id, name: 'Front', path: 'overflow' }],
    });
    expect((await call('GET', `/queues/${backup.id}`, admin.token)).statusCode).toBe(200);
    // Once nothing sends calls there any more, it can go.
    expect((await call('PATCH', `/queues/${front.id}`, admin.token, { overflow: { type: 'hangup' } })).statusCode).toBe(200);
    expect((await call('DELETE', `/queues/${backup.id}`, admin.token)).statusCode).toBe(204);
  });

  it('lets anyone of the PBX and a call-routing key read; only administrators write; other tenants get 404', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const queue = (await call('POST', '/queues', admin.token, { name: 'Desk' })).json().data;
    const routingKey = await createKey(t.ctx, admin.tenant, 'integration', ['call-routing']);
    const otherKey = await createKey(t.ctx, admin.tenant, 'integration', ['phone-numbers']);
    const pbxKey = await createKey(t.ctx, admin.tenant, 'pbx');

    for (const token of [user.token, routingKey, pbxKey]) {
      expect((await call('GET', '/queues', token)).json().data.map((q: { id: string }) => q.id)).toEqual([queue.id]);
      expect((await call('GET', `/queues/${queue.id}`, token)).statusCode).toBe(200);
      expect((await call('POST', '/queues', token, { name: 'Mine' })).statusCode).toBe(403);
      expect((await call('PATCH', `/queues/${queue.id}`, token, { name: 'Mine' })).statusCode).toBe(403);
      expect((await call('DELETE', `/queues/${queue.id}`, token)).statusCode).toBe(403);
      expect((await call('POST', `/queues/${queue.id}/restore`, token)).statusCode).toBe(403);
    }
    expect((await call('GET', '/queues', otherKey)).statusCode).toBe(403);

    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', '/queues', stranger.token)).json().data).toEqual([]);
    expect((await call('GET', `/queues/${queue.id}`, stranger.token)).statusCode).toBe(404);
    expect((await call('PATCH', `/queues/${queue.id}`, stranger.token, { name: 'Taken' })).statusCode).toBe(404);
    expect((await call('DELETE', `/queues/${queue.id}`, stranger.token)).statusCode).toBe(404);
    expect((await call('POST', `/queues/${queue.id}/restore`, stranger.token)).statusCode).toBe(404);
    // Nor can another tenant point at it.
    expect(await errorsOf('POST', '/queues', stranger.token, { name: 'Q', overflow: { type: 'queue', id: queue.id } })).toHaveProperty(['overflow.id']);
    expect((await call('GET', `/queues/${queue.id}`, admin.token)).json().data).toMatchObject({ name: 'Desk', deleted_at: null });
  });
});
