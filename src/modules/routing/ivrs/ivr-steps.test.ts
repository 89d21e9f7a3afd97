import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createKey, createTenant, createUser } from '../../../../test/factories.js';
import { createCallFlow, createSoundFile } from '../../../../test/routing-factories.js';

const STEP_KEYS = [
  'created_at',
  'deleted_at',
  'id',
  'ivr_id',
  'language',
  'name',
  'option',
  'pbx_id',
  'target_id',
  'target_type',
  'updated_at',
  'voip_ivr_btn_id',
];
const OPTIONS = ['default', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '#'];
const CALL_FLOW = 'App\\Models\\CallFlow';
const IVR = 'App\\Models\\Ivr';

describe('IVR steps', () => {
  const t = useTestApp();
  const call = apiCaller(() => t);

  /** A PBX with an administrator, a user, a call flow and an IVR menu. */
  async function setup() {
    const tenant = await createTenant(t.ctx);
    const admin = await createAdmin(t.ctx, tenant);
    const user = await createUser(t.ctx, { tenant });
    const announcement = await createSoundFile(t.ctx, tenant, 'announcement', { name: 'Welcome' });
    const newIvr = async (name: string) =>
      (await call('POST', '/ivrs', admin.token, { pbx_id: tenant.pbxId, name, announcement })).json().data as { id: string };
    const ivr = await newIvr('Main menu');
    const flow = await createCallFlow(t.ctx, tenant);
    const steps = `/ivrs/${ivr.id}/steps`;
    return { tenant, admin, user, ivr, flow, steps, newIvr };
  }

  const errorsOf = async (response: Promise<{ statusCode: number; json: () => { errors?: Record<string, string[]> } }>) => {
    const answer = await response;
    expect(answer.statusCode).toBe(422);
    return answer.json().errors ?? {};
  };

  it('creates a step with the contract’s fields (201 {data}) and shows it in its IVR', async () => {
    const { tenant, admin, ivr, flow, steps } = await setup();
    const created = await call('POST', steps, admin.token, {
      option: '1',
      target_type: CALL_FLOW,
      target_id: flow,
      name: 'Sales',
      language: 'fr',
      voip_ivr_btn_id: 42,
    });
    expect(created.statusCode).toBe(201);
    const step = created.json().data;
    expect(Object.keys(step).sort()).toEqual(STEP_KEYS);
    expect(step).toMatchObject({
      pbx_id: tenant.pbxId,
      ivr_id: ivr.id,
      option: '1',
      target_type: 'App\\Models\\CallFlow',
      target_id: flow,
      name: 'Sales',
      language: 'fr',
      voip_ivr_btn_id: 42,
      deleted_at: null,
    });
    expect(created.body).toContain('"target_type":"App\\\\Models\\\\CallFlow"');
    const minimal = (await call('POST', steps, admin.token, { option: '2', target_type: CALL_FLOW, target_id: flow })).json().data;
    expect(minimal).toMatchObject({ name: null, language: null, voip_ivr_btn_id: null });
    expect((await call('GET', `${steps}/${step.id}`, admin.token)).json()).toEqual({ data: step });
    expect((await call('GET', `/ivrs/${ivr.id}`, admin.token)).json().data.steps).toEqual([step, minimal]);
  });

  it('takes each key once: default, 0-9, *, # (others refused); a duplicate is 422 until the step is deleted', async () => {
    const { admin, ivr, flow, steps } = await setup();
    // Created out of order; listed and embedded in the menu's order.
    for (const option of [...OPTIONS].reverse()) {
      const created = await call('POST', steps, admin.token, { option, target_type: CALL_FLOW, target_id: flow });
      expect(created.statusCode, option).toBe(201);
    }
    expect((await call('GET', `/ivrs/${ivr.id}`, admin.token)).json().data.steps.map((s: { option: string }) => s.option)).toEqual(OPTIONS);
    const listed = await call('GET', `${steps}?perPage=20`, admin.token);
    expect(listed.json().data.map((s: { option: string }) => s.option)).toEqual(OPTIONS);
    expect(listed.json().meta).toMatchObject({ total: 13 });
    expect((await call('GET', `${steps}?perPage=20&sort=-option`, admin.token)).json().data.map((s: { option: string }) => s.option)).toEqual(
      [...OPTIONS].reverse(),
    );
    expect((await call('GET', `${steps}?perPage=5&page=3`, admin.token)).json().data.map((s: { option: string }) => s.option)).toEqual(['9', '*', '#']);

    for (const option of ['10', 'a', '', 'DEFAULT', '**'])
      expect(await errorsOf(call('POST', steps, admin.token, { option, target_type: CALL_FLOW, target_id: flow }))).toHaveProperty('option');
    expect(await errorsOf(call('POST', steps, admin.token, { option: 1, target_type: CALL_FLOW, target_id: flow }))).toHaveProperty('option');

    const duplicate = await call('POST', steps, admin.token, { option: '5', target_type: CALL_FLOW, target_id: flow });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json()).toEqual({ message: 'The option has already been taken.', errors: { option: ['The option has already been taken.'] } });

    const five = (await call('GET', `${steps}?filter[option]=5`, admin.token)).json().data;
    expect(five).toHaveLength(1);
    expect((await call('DELETE', `${steps}/${five[0].id}`, admin.token)).statusCode).toBe(204);
    const again = await call('POST', steps, admin.token, { option: '5', target_type: CALL_FLOW, target_id: flow, name: 'New five' });
    expect(again.statusCode).toBe(201);
    // The old step cannot come back while its key is taken.
    expect(await errorsOf(call('POST', `${steps}/${five[0].id}/restore`, admin.token))).toEqual({ option: ['The option has already been taken.'] });
    // Nor can another step move onto a taken key.
    expect(await errorsOf(call('PATCH', `${steps}/${again.json().data.id}`, admin.token, { option: '6' }))).toEqual({
      option: ['The option has already been taken.'],
    });
    expect(await errorsOf(call('GET', `${steps}?filter[option]=x`, admin.token))).toHaveProperty('filter[option]');
  });

  it('targets a live call flow or another IVR of the PBX (menus nest); anything else is 422', async () => {
    const { tenant, admin, flow, steps, newIvr } = await setup();
    const sub = await newIvr('Sub menu');
    const toMenu = await call('POST', steps, admin.token, { option: '1', target_type: IVR, target_id: sub.id });
    expect(toMenu.statusCode).toBe(201);
    expect(toMenu.json().data).toMatchObject({ target_type: 'App\\Models\\Ivr', target_id: sub.id });
    // The sub-menu goes back up with its own step.
    const main = toMenu.json().data.ivr_id;
    expect((await call('POST', `/ivrs/${sub.id}/steps`, admin.token, { option: '*', target_type: IVR, target_id: main })).statusCode).toBe(201);

    expect(await errorsOf(call('POST', steps, admin.token, { option: '2', target_type: 'App\\Models\\Queue', target_id: flow }))).toHaveProperty('target_type');
    expect(await errorsOf(call('POST', steps, admin.token, { option: '2', target_type: 'call_flow', target_id: flow }))).toHaveProperty('target_type');
    expect(Object.keys(await errorsOf(call('POST', steps, admin.token, { option: '2' }))).sort()).toEqual(['target_id', 'target_type']);
    expect(await errorsOf(call('POST', steps, admin.token, { option: '2', target_type: CALL_FLOW }))).toEqual({
      target_id: ['The target id field is required.'],
    });
    // The type must match what the id names.
    expect(await errorsOf(call('POST', steps, admin.token, { option: '2', target_type: IVR, target_id: flow }))).toHaveProperty('target_id');
    expect(await errorsOf(call('POST', steps, admin.token, { option: '2', target_type: CALL_FLOW, target_id: sub.id }))).toHaveProperty('target_id');
    expect(await errorsOf(call('POST', steps, admin.token, { option: '2', target_type: CALL_FLOW, target_id: randomUUID() }))).toHaveProperty('target_id');
    const foreignFlow = await createCallFlow(t.ctx, await createTenant(t.ctx));
    expect(await errorsOf(call('POST', steps, admin.token, { option: '2', target_type: CALL_FLOW, target_id: foreignFlow }))).toHaveProperty('target_id');
    const deletedFlow = await createCallFlow(t.ctx, tenant, 'Old');
    await t.ctx.db.updateTable('call_flows').set({ deleted_at: new Date().toISOString() }).where('id', '=', deletedFlow).execute();
    expect(await errorsOf(call('POST', steps, admin.token, { option: '2', target_type: CALL_FLOW, target_id: deletedFlow }))).toHaveProperty('target_id');
    const gone = await newIvr('Gone');
    await call('DELETE', `/ivrs/${gone.id}`, admin.token);
    expect(await errorsOf(call('POST', steps, admin.token, { option: '2', target_type: IVR, target_id: gone.id }))).toHaveProperty('target_id');

    // The other fields' limits.
    const base = { option: '3', target_type: CALL_FLOW, target_id: flow };
    expect(await errorsOf(call('POST', steps, admin.token, { ...base, name: 'n'.repeat(129) }))).toHaveProperty('name');
    expect((await call('POST', steps, admin.token, { ...base, name: 'n'.repeat(128) })).statusCode).toBe(201);
    expect(await errorsOf(call('POST', steps, admin.token, { ...base, option: '4', language: 'xx' }))).toHaveProperty('language');
    expect(await errorsOf(call('POST', steps, admin.token, { ...base, option: '4', voip_ivr_btn_id: 2 ** 31 }))).toHaveProperty('voip_ivr_btn_id');
    expect(await errorsOf(call('POST', steps, admin.token, { ...base, option: '4', ivr_id: sub.id }))).toHaveProperty('ivr_id');

    // PATCH: a new type alone is checked against the current target.
    const step = toMenu.json().data;
    expect(await errorsOf(call('PATCH', `${steps}/${step.id}`, admin.token, { target_type: CALL_FLOW }))).toHaveProperty('target_id');
    const moved = await call('PATCH', `${steps}/${step.id}`, admin.token, {
      target_type: CALL_FLOW,
      target_id: flow,
      name: 'Flow',
      language: null,
      option: '0',
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toMatchObject({ target_type: CALL_FLOW, target_id: flow, name: 'Flow', language: null, option: '0' });
  });

  it('embeds each step’s target with include=target / steps.target, null when it is gone', async () => {
    const { tenant, admin, ivr, flow, steps, newIvr } = await setup();
    const sub = await newIvr('Sub menu');
    const first = (await call('POST', steps, admin.token, { option: '1', target_type: CALL_FLOW, target_id: flow })).json().data;
    const second = (await call('POST', steps, admin.token, { option: '2', target_type: IVR, target_id: sub.id })).json().data;
    const withTargets = (await call('GET', `/ivrs/${ivr.id}?include=steps.target`, admin.token)).json().data;
    expect(withTargets.steps.map((s: { target: unknown }) => s.target)).toEqual([
      { id: flow, name: 'Office hours', type: 'call_flow' },
      { id: sub.id, name: 'Sub menu', type: 'ivr' },
    ]);
    expect((await call('GET', `/ivrs/${ivr.id}?include=steps`, admin.token)).json().data.steps[0]).not.toHaveProperty('target');
    expect((await call('GET', `${steps}/${second.id}?include=target`, admin.token)).json().data.target).toEqual({ id: sub.id, name: 'Sub menu', type: 'ivr' });
    expect((await call('GET', `${steps}?include=target`, admin.token)).json().data.map((s: { target: { type: string } }) => s.target.type)).toEqual([
      'call_flow',
      'ivr',
    ]);
    expect((await call('GET', `${steps}/${first.id}`, admin.token)).json().data).not.toHaveProperty('target');
    await t.ctx.db.updateTable('call_flows').set({ deleted_at: new Date().toISOString() }).where('id', '=', flow).where('pbx_id', '=', tenant.pbxId).execute();
    expect((await call('GET', `${steps}/${first.id}?include=target`, admin.token)).json().data.target).toBeNull();
    for (const bad of ['ivr', 'target.name', 'steps'])
      expect((await errorsOf(call('GET', `${steps}/${first.id}?include=${bad}`, admin.token))).include[0]).toContain('Allowed: target');
    expect(await errorsOf(call('GET', `${steps}?include=steps.target`, admin.token))).toHaveProperty('include');
  });

  it('soft-deletes and restores steps; filter[trashed]; a deleted IVR’s steps are 404', async () => {
    const { admin, ivr, flow, steps } = await setup();
    const step = (await call('POST', steps, admin.token, { option: 'default', target_type: CALL_FLOW, target_id: flow })).json().data;
    expect((await call('DELETE', `${steps}/${step.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `${steps}/${step.id}`, admin.token)).statusCode).toBe(404);
    expect((await call('DELETE', `${steps}/${step.id}`, admin.token)).statusCode).toBe(404);
    expect((await call('PATCH', `${steps}/${step.id}`, admin.token, { name: 'x' })).statusCode).toBe(404);
    expect((await call('GET', `/ivrs/${ivr.id}`, admin.token)).json().data.steps).toEqual([]);
    expect((await call('GET', steps, admin.token)).json().data).toEqual([]);
    const trashed = (await call('GET', `${steps}?filter[trashed]=only`, admin.token)).json().data;
    expect(trashed.map((s: { id: string }) => s.id)).toEqual([step.id]);
    expect(trashed[0].deleted_at).not.toBeNull();
    expect((await call('GET', `${steps}?filter[trashed]=with`, admin.token)).json().data).toHaveLength(1);

    // A step whose target is gone does not come back.
    await t.ctx.db.updateTable('call_flows').set({ deleted_at: new Date().toISOString() }).where('id', '=', flow).execute();
    expect(await errorsOf(call('POST', `${steps}/${step.id}/restore`, admin.token))).toHaveProperty('target_id');
    await t.ctx.db.updateTable('call_flows').set({ deleted_at: null }).where('id', '=', flow).execute();
    const restored = await call('POST', `${steps}/${step.id}/restore`, admin.token);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ id: step.id, option: 'default', deleted_at: null });
    expect((await call('POST', `${steps}/${step.id}/restore`, admin.token)).statusCode).toBe(404);

    // The steps of a deleted IVR are out of reach; they come back with it.
    const other = (
      await call('POST', `/ivrs`, admin.token, {
        pbx_id: admin.tenant.pbxId,
        name: 'Other',
        announcement: await createSoundFile(t.ctx, admin.tenant, 'announcement'),
      })
    ).json().data;
    expect((await call('GET', `/ivrs/${other.id}/steps/${step.id}`, admin.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/ivrs/${ivr.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', steps, admin.token)).statusCode).toBe(404);
    expect((await call('GET', `${steps}/${step.id}`, admin.token)).json()).toEqual({ message: ['IVR not found.'] });
    expect((await call('POST', steps, admin.token, { option: '1', target_type: CALL_FLOW, target_id: flow })).statusCode).toBe(404);
    expect((await call('PATCH', `${steps}/${step.id}`, admin.token, { name: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', `${steps}/${step.id}`, admin.token)).statusCode).toBe(404);
    expect((await call('POST', `${steps}/${step.id}/restore`, admin.token)).statusCode).toBe(404);
    expect((await call('POST', `/ivrs/${ivr.id}/restore`, admin.token)).json().data.steps.map((s: { id: string }) => s.id)).toEqual([step.id]);
  });

  it('lets anyone of the PBX read; only administrators write (403); another tenant gets 404', async () => {
    const { tenant, admin, user, ivr, flow, steps } = await setup();
    const step = (await call('POST', steps, admin.token, { option: '1', target_type: CALL_FLOW, target_id: flow })).json().data;
    expect((await call('GET', steps, user.token)).statusCode).toBe(200);
    expect((await call('GET', `${steps}/${step.id}`, user.token)).statusCode).toBe(200);
    expect((await call('GET', steps, await createKey(t.ctx, tenant, 'integration', ['call-routing']))).statusCode).toBe(200);
    expect((await call('GET', steps, await createKey(t.ctx, tenant, 'pbx'))).statusCode).toBe(200);
    expect((await call('POST', steps, user.token, { option: '2', target_type: CALL_FLOW, target_id: flow })).statusCode).toBe(403);
    expect((await call('PATCH', `${steps}/${step.id}`, user.token, { name: 'x' })).statusCode).toBe(403);
    expect((await call('DELETE', `${steps}/${step.id}`, user.token)).statusCode).toBe(403);
    expect((await call('POST', `${steps}/${step.id}/restore`, user.token)).statusCode).toBe(403);

    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', steps, stranger.token)).statusCode).toBe(404);
    expect((await call('GET', `${steps}/${step.id}`, stranger.token)).statusCode).toBe(404);
    expect((await call('POST', steps, stranger.token, { option: '2', target_type: CALL_FLOW, target_id: flow })).statusCode).toBe(404);
    expect((await call('PATCH', `${steps}/${step.id}`, stranger.token, { name: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', `${steps}/${step.id}`, stranger.token)).statusCode).toBe(404);
    await call('DELETE', `${steps}/${step.id}`, admin.token);
    expect((await call('POST', `${steps}/${step.id}/restore`, stranger.token)).statusCode).toBe(404);
    // Its own IVR with the stranger's step id: still 404.
    const own = (
      await call('POST', '/ivrs', stranger.token, {
        pbx_id: stranger.tenant.pbxId,
        name: 'Theirs',
        announcement: await createSoundFile(t.ctx, stranger.tenant, 'announcement'),
      })
    ).json().data;
    expect((await call('GET', `/ivrs/${own.id}/steps/${step.id}`, stranger.token)).statusCode).toBe(404);
    expect(ivr.id).not.toBe(own.id);
  });
});
