import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createKey, createTenant, createUser } from '../../../../test/factories.js';
import { createCallFlow, createSoundFile } from '../../../../test/routing-factories.js';

const IVR_KEYS = [
  'announcement_id',
  'announcement_language',
  'comment',
  'created_at',
  'default_action',
  'deleted_at',
  'id',
  'max_repeats',
  'music_on_hold_id',
  'name',
  'pbx_id',
  'steps',
  'timeout_seconds',
  'updated_at',
];

describe('IVRs', () => {
  const t = useTestApp();
  const call = apiCaller(() => t);

  /** A PBX with an administrator, a user, an announcement and a music file. */
  async function setup() {
    const tenant = await createTenant(t.ctx);
    const admin = await createAdmin(t.ctx, tenant);
    const user = await createUser(t.ctx, { tenant });
    const announcement = await createSoundFile(t.ctx, tenant, 'announcement', { name: 'Welcome', language: 'en' });
    const music = await createSoundFile(t.ctx, tenant, 'music', { name: 'Jazz', language: 'en' });
    const body = { pbx_id: tenant.pbxId, name: 'Main menu', announcement };
    return { tenant, admin, user, announcement, music, body };
  }

  const errorsOf = async (response: Promise<{ statusCode: number; json: () => { errors?: Record<string, string[]> } }>) => {
    const answer = await response;
    expect(answer.statusCode).toBe(422);
    return answer.json().errors ?? {};
  };

  it('creates an IVR with the contract’s fields and our defaults (201 {data}), steps always present', async () => {
    const { tenant, admin, announcement, body } = await setup();
    const created = await call('POST', '/ivrs', admin.token, body);
    expect(created.statusCode).toBe(201);
    const ivr = created.json().data;
    expect(Object.keys(created.json())).toEqual(['data']);
    expect(Object.keys(ivr).sort()).toEqual(IVR_KEYS);
    expect(ivr).toMatchObject({
      pbx_id: tenant.pbxId,
      name: 'Main menu',
      comment: null,
      announcement_id: announcement,
      announcement_language: null,
      music_on_hold_id: null,
      default_action: 'hangup',
      timeout_seconds: 5,
      max_repeats: 2,
      steps: [],
      deleted_at: null,
    });
    const read = await call('GET', `/ivrs/${ivr.id}`, admin.token);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ data: ivr });
  });

  it('takes every field of the body (camelCase musicOnHold next to snake_case)', async () => {
    const { admin, music, body } = await setup();
    const full = {
      ...body,
      comment: 'Opening hours',
      musicOnHold: music,
      default_action: 'repeat',
      announcement_language: 'de',
      timeout_seconds: 60,
      max_repeats: 10,
    };
    const created = await call('POST', '/ivrs', admin.token, full);
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({
      comment: 'Opening hours',
      music_on_hold_id: music,
      default_action: 'repeat',
      announcement_language: 'de',
      timeout_seconds: 60,
      max_repeats: 10,
    });
    for (const default_action of ['hangup', 'default_step'])
      expect((await call('POST', '/ivrs', admin.token, { ...body, default_action })).json().data.default_action).toBe(default_action);
  });

  it('validates POST /ivrs field by field (422 naming the field)', async () => {
    const { admin, announcement, music, body } = await setup();
    // name: 3-64 characters
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, name: 'ab' }))).toEqual({ name: ['The name field must be at least 3 characters.'] });
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, name: 'x'.repeat(65) }))).toHaveProperty('name');
    expect((await call('POST', '/ivrs', admin.token, { ...body, name: 'abc' })).statusCode).toBe(201);
    expect((await call('POST', '/ivrs', admin.token, { ...body, name: 'x'.repeat(64) })).statusCode).toBe(201);
    // comment: up to 255, or null
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, comment: 'c'.repeat(256) }))).toHaveProperty('comment');
    expect((await call('POST', '/ivrs', admin.token, { ...body, comment: 'c'.repeat(255) })).statusCode).toBe(201);
    expect((await call('POST', '/ivrs', admin.token, { ...body, comment: null })).statusCode).toBe(201);
    // required fields
    expect(Object.keys(await errorsOf(call('POST', '/ivrs', admin.token, {}))).sort()).toEqual(['announcement', 'name', 'pbx_id']);
    // announcement: a live sound file of this PBX, of type announcement
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, announcement: music }))).toEqual({
      announcement: ['The announcement must be a sound file of type announcement.'],
    });
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, announcement: randomUUID() }))).toEqual({
      announcement: ['The selected announcement is invalid.'],
    });
    const foreign = await createSoundFile(t.ctx, await createTenant(t.ctx), 'announcement');
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, announcement: foreign }))).toHaveProperty('announcement');
    const deleted = await createSoundFile(t.ctx, admin.tenant, 'announcement', { deleted: true });
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, announcement: deleted }))).toHaveProperty('announcement');
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, announcement: 'not-a-uuid' }))).toHaveProperty('announcement');
    // musicOnHold: of type music, or null
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, musicOnHold: announcement }))).toEqual({
      musicOnHold: ['The musicOnHold must be a sound file of type music.'],
    });
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, musicOnHold: randomUUID() }))).toHaveProperty('musicOnHold');
    const foreignMusic = await createSoundFile(t.ctx, await createTenant(t.ctx), 'music');
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, musicOnHold: foreignMusic }))).toHaveProperty('musicOnHold');
    expect((await call('POST', '/ivrs', admin.token, { ...body, musicOnHold: null })).statusCode).toBe(201);
    // pbx_id: the caller's PBX only
    const other = await createTenant(t.ctx);
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, pbx_id: other.pbxId }))).toEqual({ pbx_id: ['The selected pbx id is invalid.'] });
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, pbx_id: 'mine' }))).toHaveProperty('pbx_id');
    // all reference problems at once
    expect(
      Object.keys(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, pbx_id: other.pbxId, announcement: music, musicOnHold: announcement }))).sort(),
    ).toEqual(['announcement', 'musicOnHold', 'pbx_id']);
    // the rest
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, default_action: 'voicemail' }))).toHaveProperty('default_action');
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, announcement_language: 'xx' }))).toHaveProperty('announcement_language');
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, timeout_seconds: 0 }))).toHaveProperty('timeout_seconds');
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, timeout_seconds: 61 }))).toHaveProperty('timeout_seconds');
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, max_repeats: 11 }))).toHaveProperty('max_repeats');
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, max_repeats: -1 }))).toHaveProperty('max_repeats');
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, music_on_hold_id: music }))).toHaveProperty('music_on_hold_id');
    expect(await errorsOf(call('POST', '/ivrs', admin.token, { ...body, steps: [] }))).toHaveProperty('steps');
  });

  it('lists with search, sort and filter[trashed]; paginated', async () => {
    const { admin, body } = await setup();
    for (const name of ['Sales', 'Support', 'After hours']) await call('POST', '/ivrs', admin.token, { ...body, name });
    const list = await call('GET', '/ivrs', admin.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((i: { name: string }) => i.name)).toEqual(['After hours', 'Sales', 'Support']);
    expect(list.json().meta).toMatchObject({ total: 3 });
    expect((await call('GET', '/ivrs?sort=-name', admin.token)).json().data.map((i: { name: string }) => i.name)).toEqual(['Support', 'Sales', 'After hours']);
    expect((await call('GET', '/ivrs?search=s', admin.token)).json().data).toHaveLength(3);
    expect((await call('GET', '/ivrs?search=sup', admin.token)).json().data.map((i: { name: string }) => i.name)).toEqual(['Support']);
    expect((await call('GET', '/ivrs?sort=created_at&perPage=2', admin.token)).json().data).toHaveLength(2);
    expect((await errorsOf(call('GET', '/ivrs?sort=comment', admin.token)))['sort']).toBeDefined();

    const sales = list.json().data[1];
    expect((await call('DELETE', `/ivrs/${sales.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', '/ivrs', admin.token)).json().data).toHaveLength(2);
    const trashed = (await call('GET', '/ivrs?filter[trashed]=only', admin.token)).json().data;
    expect(trashed.map((i: { id: string }) => i.id)).toEqual([sales.id]);
    expect(trashed[0].deleted_at).not.toBeNull();
    expect((await call('GET', '/ivrs?filter[trashed]=with', admin.token)).json().data).toHaveLength(3);
    expect(await errorsOf(call('GET', '/ivrs?filter[trashed]=all', admin.token))).toHaveProperty('filter[trashed]');
  });

  it('embeds what include asks for, from its allow-list only', async () => {
    const { admin, announcement, music, body } = await setup();
    const ivr = (await call('POST', '/ivrs', admin.token, { ...body, musicOnHold: music })).json().data;
    const plain = (await call('GET', `/ivrs/${ivr.id}`, admin.token)).json().data;
    expect(plain).not.toHaveProperty('announcement');
    expect(plain).not.toHaveProperty('musicOnHold');
    const full = (await call('GET', `/ivrs/${ivr.id}?include=announcement,musicOnHold,steps,steps.target`, admin.token)).json().data;
    expect(full.announcement).toEqual({ id: announcement, name: 'Welcome', type: 'announcement', language: 'en', duration_ms: 1500 });
    expect(full.musicOnHold).toEqual({ id: music, name: 'Jazz', type: 'music', language: 'en', duration_ms: 1500 });
    expect(full.steps).toEqual([]);
    const withoutMusic = (await call('POST', '/ivrs', admin.token, body)).json().data;
    expect((await call('GET', `/ivrs/${withoutMusic.id}?include=musicOnHold`, admin.token)).json().data.musicOnHold).toBeNull();
    const listed = (await call('GET', '/ivrs?include=announcement', admin.token)).json().data;
    expect(listed.every((i: { announcement: { id: string } }) => i.announcement.id === announcement)).toBe(true);

    for (const bad of ['sounds', 'steps.ivr', 'announcement,user']) {
      const refused = await call('GET', `/ivrs/${ivr.id}?include=${bad}`, admin.token);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.include[0]).toContain('Allowed: announcement, musicOnHold, steps, steps.target');
    }
    expect((await call('GET', '/ivrs?include=steps.ivr', admin.token)).statusCode).toBe(422);
  });

  it('PATCH changes the fields sent, with the creation’s limits', async () => {
    const { tenant, admin, music, body } = await setup();
    const ivr = (await call('POST', '/ivrs', admin.token, body)).json().data;
    const changed = await call('PATCH', `/ivrs/${ivr.id}`, admin.token, { name: 'Renamed', musicOnHold: music, timeout_seconds: 10, pbx_id: tenant.pbxId });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({
      name: 'Renamed',
      music_on_hold_id: music,
      timeout_seconds: 10,
      announcement_id: body.announcement,
      max_repeats: 2,
    });
    expect(Object.keys(changed.json().data).sort()).toEqual(IVR_KEYS);
    expect((await call('PATCH', `/ivrs/${ivr.id}`, admin.token, { musicOnHold: null, comment: 'x' })).json().data).toMatchObject({
      music_on_hold_id: null,
      comment: 'x',
    });
    expect((await call('PATCH', `/ivrs/${ivr.id}`, admin.token, {})).statusCode).toBe(200);
    expect(await errorsOf(call('PATCH', `/ivrs/${ivr.id}`, admin.token, { name: 'ab' }))).toHaveProperty('name');
    expect(await errorsOf(call('PATCH', `/ivrs/${ivr.id}`, admin.token, { announcement: music }))).toHaveProperty('announcement');
    expect(await errorsOf(call('PATCH', `/ivrs/${ivr.id}`, admin.token, { announcement: null }))).toHaveProperty('announcement');
    expect(await errorsOf(call('PATCH', `/ivrs/${ivr.id}`, admin.token, { pbx_id: (await createTenant(t.ctx)).pbxId }))).toEqual({
      pbx_id: ['The selected pbx id is invalid.'],
    });
    expect((await call('GET', `/ivrs/${ivr.id}`, admin.token)).json().data.name).toBe('Renamed');
  });

  it('soft-deletes and restores; refuses to delete while another IVR’s step or a call flow sends calls to it (409 used_by)', async () => {
    const { admin, body } = await setup();
    const target = (await call('POST', '/ivrs', admin.token, { ...body, name: 'Target' })).json().data;
    const parent = (await call('POST', '/ivrs', admin.token, { ...body, name: 'Parent' })).json().data;
    // The menu's own "replay" key does not hold it.
    expect(
      (await call('POST', `/ivrs/${target.id}/steps`, admin.token, { option: '9', target_type: 'App\\Models\\Ivr', target_id: target.id })).statusCode,
    ).toBe(201);
    const step = (await call('POST', `/ivrs/${parent.id}/steps`, admin.token, { option: '1', target_type: 'App\\Models\\Ivr', target_id: target.id })).json()
      .data;

    const refused = await call('DELETE', `/ivrs/${target.id}`, admin.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: 'The IVR is still used by ivr step "Parent".',
      used_by: [{ type: 'ivr_step', id: step.id, name: 'Parent', path: `ivrs/${parent.id}/steps/1` }],
    });
    expect((await call('GET', `/ivrs/${target.id}`, admin.token)).statusCode).toBe(200);

    // A call-flow node pointing at it holds it too.
    expect((await call('DELETE', `/ivrs/${parent.id}/steps/${step.id}`, admin.token)).statusCode).toBe(204);
    const flow = await createCallFlow(t.ctx, admin.tenant);
    await t.ctx.db
      .insertInto('call_flow_references')
      .values({ call_flow_id: flow, pbx_id: admin.tenant.pbxId, target_type: 'ivr', target_id: target.id, node_key: 'menu', field: 'ivr_id' })
      .execute();
    const byFlow = await call('DELETE', `/ivrs/${target.id}`, admin.token);
    expect(byFlow.statusCode).toBe(409);
    expect(byFlow.json().used_by).toEqual([{ type: 'call_flow', id: flow, name: 'Office hours', path: 'nodes.menu.ivr_id' }]);
    await t.ctx.db.deleteFrom('call_flow_references').where('call_flow_id', '=', flow).execute();

    // Deleting the parent releases the target as well: a deleted menu's steps hold nothing.
    expect((await call('POST', `/ivrs/${parent.id}/steps/${step.id}/restore`, admin.token)).statusCode).toBe(200);
    expect((await call('DELETE', `/ivrs/${parent.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('DELETE', `/ivrs/${target.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `/ivrs/${target.id}`, admin.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/ivrs/${target.id}`, admin.token)).statusCode).toBe(404);
    expect((await call('PATCH', `/ivrs/${target.id}`, admin.token, { name: 'Again' })).statusCode).toBe(404);

    // Restoring the parent first would leave its step pointing at a deleted menu: 422, restore that first.
    const dangling = await call('POST', `/ivrs/${parent.id}/restore`, admin.token);
    expect(dangling.statusCode).toBe(422);
    expect(dangling.json().errors).toHaveProperty(['steps.1.target_id']);
    const restored = await call('POST', `/ivrs/${target.id}/restore`, admin.token);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ id: target.id, deleted_at: null });
    expect(restored.json().data.steps.map((s: { option: string }) => s.option)).toEqual(['9']);
    expect((await call('POST', `/ivrs/${parent.id}/restore`, admin.token)).json().data.steps.map((s: { id: string }) => s.id)).toEqual([step.id]);
    expect((await call('POST', `/ivrs/${target.id}/restore`, admin.token)).statusCode).toBe(404);
  });

  it('refuses to restore an IVR whose announcement was deleted meanwhile (422)', async () => {
    const { admin, body } = await setup();
    const ivr = (await call('POST', '/ivrs', admin.token, body)).json().data;
    expect((await call('DELETE', `/ivrs/${ivr.id}`, admin.token)).statusCode).toBe(204);
    await t.ctx.db.updateTable('sound_files').set({ deleted_at: new Date().toISOString() }).where('id', '=', body.announcement).execute();
    expect(await errorsOf(call('POST', `/ivrs/${ivr.id}/restore`, admin.token))).toHaveProperty('announcement');
    await t.ctx.db.updateTable('sound_files').set({ deleted_at: null }).where('id', '=', body.announcement).execute();
    expect((await call('POST', `/ivrs/${ivr.id}/restore`, admin.token)).statusCode).toBe(200);
  });

  it('lets anyone of the PBX and call-routing keys read; only administrators write (403)', async () => {
    const { tenant, admin, user, body } = await setup();
    const ivr = (await call('POST', '/ivrs', admin.token, body)).json().data;
    expect((await call('GET', '/ivrs', user.token)).statusCode).toBe(200);
    expect((await call('GET', `/ivrs/${ivr.id}`, user.token)).statusCode).toBe(200);
    const pbxKey = await createKey(t.ctx, tenant, 'pbx');
    expect((await call('GET', `/ivrs/${ivr.id}`, pbxKey)).statusCode).toBe(200);
    const routingKey = await createKey(t.ctx, tenant, 'integration', ['call-routing']);
    expect((await call('GET', '/ivrs', routingKey)).statusCode).toBe(200);
    const otherScope = await createKey(t.ctx, tenant, 'integration', ['phone-numbers']);
    expect((await call('GET', '/ivrs', otherScope)).statusCode).toBe(403);

    expect((await call('POST', '/ivrs', user.token, body)).statusCode).toBe(403);
    expect((await call('PATCH', `/ivrs/${ivr.id}`, user.token, { name: 'Mine now' })).statusCode).toBe(403);
    expect((await call('DELETE', `/ivrs/${ivr.id}`, user.token)).statusCode).toBe(403);
    expect((await call('POST', `/ivrs/${ivr.id}/restore`, user.token)).statusCode).toBe(403);
    expect((await call('POST', '/ivrs', pbxKey, body)).statusCode).toBe(403);
    expect((await call('POST', '/ivrs', routingKey, body)).statusCode).toBe(403);
    expect((await call('GET', '/ivrs', '')).statusCode).toBe(401);
  });

  it('hides another tenant’s IVRs (404) and lists only the caller’s', async () => {
    const { admin, body } = await setup();
    const ivr = (await call('POST', '/ivrs', admin.token, body)).json().data;
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', '/ivrs', stranger.token)).json().data).toEqual([]);
    expect((await call('GET', `/ivrs/${ivr.id}`, stranger.token)).statusCode).toBe(404);
    expect((await call('GET', `/ivrs/${ivr.id}`, stranger.token)).json()).toEqual({ message: ['IVR not found.'] });
    expect((await call('PATCH', `/ivrs/${ivr.id}`, stranger.token, { name: 'Taken over' })).statusCode).toBe(404);
    expect((await call('DELETE', `/ivrs/${ivr.id}`, stranger.token)).statusCode).toBe(404);
    await call('DELETE', `/ivrs/${ivr.id}`, admin.token);
    expect((await call('POST', `/ivrs/${ivr.id}/restore`, stranger.token)).statusCode).toBe(404);
    expect((await call('GET', '/ivrs?filter[trashed]=only', stranger.token)).json().data).toEqual([]);
  });
});
