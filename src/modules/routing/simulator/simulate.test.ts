import { beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createKey, createUser, type TestTenant, type TestUser } from '../../../../test/factories.js';
import { createSoundFile } from '../../../../test/routing-factories.js';

interface Step {
  kind: string;
  outcome: string;
  reason: string;
  name: string | null;
  language: string | null;
}

describe('the route simulator', () => {
  let admin: TestUser;
  let tenant: TestTenant;
  let agent: TestUser;
  let seller: TestUser;
  let ids: Record<string, string>;
  const call = apiCaller(() => t);
  const NUMBER = '+35227555000';

  const t = useTestApp();
  beforeAll(async () => {
    admin = await createAdmin(t.ctx);
    tenant = admin.tenant;
    agent = await createUser(t.ctx, { tenant, fields: { first_name: 'Anna', last_name: 'Agent' } });
    seller = await createUser(t.ctx, { tenant, fields: { first_name: 'Sam', last_name: 'Seller' } });
    const welcome = await createSoundFile(t.ctx, tenant, 'announcement', { name: 'Welcome' });
    const closed = await createSoundFile(t.ctx, tenant, 'announcement', { name: 'Closed' });
    const post = (url: string, body: object) => call('POST', url, admin.token, body).then((r) => r.json().data.id as string);
    const queue = await post('/queues', {
      name: 'Support',
      max_callers: 5,
      max_wait_seconds: 120,
      members: [{ type: 'user', id: agent.id }],
      overflow: { type: 'voicemail', id: agent.id },
    });
    const sales = await post('/call-flows', {
      name: 'Sales',
      entry: 'ring',
      nodes: [
        { key: 'ring', type: 'ring_user', user_id: seller.id, no_answer: 'vm' },
        { key: 'vm', type: 'voicemail', user_id: agent.id },
      ],
    });
    const support = await post('/call-flows', { name: 'Support', entry: 'q', nodes: [{ key: 'q', type: 'queue', queue_id: queue }] });
    const menu = await post('/ivrs', { pbx_id: tenant.pbxId, name: 'Main menu', announcement: welcome });
    await post(`/ivrs/${menu}/steps`, { option: '1', name: 'Sales', language: 'de', target_type: 'App\\Models\\CallFlow', target_id: sales });
    await post(`/ivrs/${menu}/steps`, { option: 'default', target_type: 'App\\Models\\CallFlow', target_id: support });
    await call('PATCH', `/ivrs/${menu}`, admin.token, { default_action: 'default_step' });
    const main = await post('/call-flows', {
      name: 'Main number',
      entry: 'hours',
      nodes: [
        {
          key: 'hours',
          type: 'time_condition',
          open_hours: [{ days: [1, 2, 3, 4, 5], from: '08:00', to: '18:00' }],
          public_holidays_country: 'LU',
          open: 'menu',
          closed: 'closed',
          holiday: 'vm',
        },
        { key: 'menu', type: 'ivr', ivr_id: menu },
        { key: 'closed', type: 'play', sound_file_id: closed, next: 'vm' },
        { key: 'vm', type: 'voicemail', user_id: agent.id },
      ],
    });
    const number = await call('POST', '/phone-numbers', admin.token, { number: NUMBER, destination_type: 'call_flow', destination_id: main });
    expect(number.statusCode).toBe(201);
    ids = { queue, sales, support, menu, main, number: number.json().data.id };
  });

  const simulate = (body: object, token = admin.token) => call('POST', '/call-routing/simulate', token, { number: NUMBER, ...body });
  const path = (steps: Step[]) => steps.map((s) => `${s.kind}:${s.outcome}`);

  it('follows open hours, a key pressed and a ring answered, each step with its reason', async () => {
    // Tuesday 24 November 2026, 10:00 in Luxembourg (UTC+1).
    const response = await simulate({ at: '2026-11-24T09:00:00Z', keys: ['1'], caller: '+352691000111' });
    expect(response.statusCode).toBe(200);
    const result = response.json().data;
    expect(result).toMatchObject({
      number: NUMBER,
      caller: '+352691000111',
      result: 'answered',
      answered_by: { type: 'user', id: seller.id, name: 'Sam Seller' },
    });
    expect(result.local_time).toContain('10:00');
    expect(path(result.steps)).toEqual(['number:routed', 'call_flow:entered', 'time_condition:open', 'ivr:key_1', 'call_flow:entered', 'ring:answered']);
    expect(result.steps[2].reason).toContain('within the open hours Mon–Fri 08:00–18:00');
    // The step switched the announcements to German from there on.
    expect(result.steps.at(-1).language).toBe('de');
  });

  it('takes the closed branch outside open hours, in the PBX time zone across daylight saving', async () => {
    const at = async (instant: string) => (await simulate({ at: instant, keys: ['1'] })).json().data.steps[2].outcome;
    expect(await at('2026-11-24T16:30:00Z')).toBe('open'); // 17:30 CET
    expect(await at('2026-11-24T17:30:00Z')).toBe('closed'); // 18:30 CET
    expect(await at('2026-07-14T15:30:00Z')).toBe('open'); // 17:30 CEST
    expect(await at('2026-07-14T16:30:00Z')).toBe('closed'); // 18:30 CEST
    expect(await at('2026-11-28T10:00:00Z')).toBe('closed'); // a Saturday
    const closed = (await simulate({ at: '2026-11-24T20:00:00Z' })).json().data;
    expect(path(closed.steps)).toEqual(['number:routed', 'call_flow:entered', 'time_condition:closed', 'play:played', 'voicemail:voicemail']);
    expect(closed.result).toBe('voicemail');
    expect(closed.steps[2].reason).toContain('outside the open hours');
  });

  it('takes the holiday branch on a public holiday of the country and on the PBX’s own', async () => {
    const christmas = (await simulate({ at: '2026-12-25T10:00:00Z' })).json().data;
    expect(christmas.steps[2]).toMatchObject({ kind: 'time_condition', outcome: 'holiday' });
    expect(christmas.steps[2].reason).toContain('public holiday in LU');
    expect(christmas.result).toBe('voicemail');
    const own = await call('POST', `/${tenant.pbxId}/holidays`, admin.token, { name: 'Company day', date: '2026-11-26' });
    expect(own.statusCode).toBe(201);
    const companyDay = (await simulate({ at: '2026-11-26T10:00:00Z' })).json().data;
    expect(companyDay.steps[2]).toMatchObject({ outcome: 'holiday' });
    expect(companyDay.steps[2].reason).toContain('Company day, a holiday of the PBX');
  });

  it('sees a holiday added, changed or removed and a number relabelled at once (none of them is kept between calls)', async () => {
    const tuesday = async () => (await simulate({ at: '2026-12-01T09:00:00Z' })).json().data;
    expect((await tuesday()).steps[2]).toMatchObject({ kind: 'time_condition', outcome: 'open' });
    const added = await call('POST', `/${tenant.pbxId}/holidays`, admin.token, { name: 'Founders day', date: '2026-12-01' });
    expect(added.statusCode).toBe(201);
    const holiday = added.json().data.id as string;
    expect((await tuesday()).steps[2].reason).toContain('Founders day, a holiday of the PBX');
    expect((await call('PATCH', `/${tenant.pbxId}/holidays/${holiday}`, admin.token, { name: 'Founders afternoon', half_day: true })).statusCode).toBe(200);
    // A half day from the PBX's split on (12:00 unless set): 10:00 is open again.
    expect((await tuesday()).steps[2]).toMatchObject({ outcome: 'open' });
    expect((await call('PATCH', `/${tenant.pbxId}/holidays/${holiday}`, admin.token, { half_day: false })).statusCode).toBe(200);
    expect((await tuesday()).steps[2].reason).toContain('Founders afternoon, a holiday of the PBX');
    expect((await call('DELETE', `/${tenant.pbxId}/holidays/${holiday}`, admin.token)).statusCode).toBe(204);
    expect((await tuesday()).steps[2]).toMatchObject({ outcome: 'open' });

    expect((await call('PATCH', `/phone-numbers/${ids.number}`, admin.token, { label: 'Front desk' })).statusCode).toBe(200);
    expect((await tuesday()).steps[0].reason).toBe(`${NUMBER} (Front desk) is dialled; it routes to a call flow.`);
    expect((await call('PATCH', `/phone-numbers/${ids.number}`, admin.token, { label: null })).statusCode).toBe(200);
    expect((await tuesday()).steps[0].reason).toBe(`${NUMBER} is dialled; it routes to a call flow.`);
  });

  it('goes to the default step when no key is pressed, and to the overflow when the queue cannot answer', async () => {
    const timeout = (await simulate({ at: '2026-11-24T09:00:00Z' })).json().data;
    expect(path(timeout.steps)).toEqual(['number:routed', 'call_flow:entered', 'time_condition:open', 'ivr:timeout', 'call_flow:entered', 'queue:answered']);
    expect(timeout.answered_by).toMatchObject({ type: 'user', id: agent.id });

    const nobody = (await simulate({ at: '2026-11-24T09:00:00Z', answer: 'nobody' })).json().data;
    expect(path(nobody.steps).slice(-2)).toEqual(['queue:overflow', 'voicemail:voicemail']);
    expect(nobody.steps.at(-2).reason).toContain('maximum wait of 120 s');

    const full = (await simulate({ at: '2026-11-24T09:00:00Z', queue_full: true })).json().data;
    expect(full.steps.at(-2)).toMatchObject({ kind: 'queue', outcome: 'overflow' });
    expect(full.steps.at(-2).reason).toContain('Queue full');

    const noAnswer = (await simulate({ at: '2026-11-24T09:00:00Z', keys: ['1'], answer: 'nobody' })).json().data;
    expect(path(noAnswer.steps).slice(-2)).toEqual(['ring:no_answer', 'voicemail:voicemail']);
  });

  it('tells why a disabled user is not rung', async () => {
    await t.ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', seller.id).execute();
    const result = (await simulate({ at: '2026-11-24T09:00:00Z', keys: ['1'] })).json().data;
    expect(result.steps.at(-2)).toMatchObject({ kind: 'ring', outcome: 'no_answer' });
    expect(result.steps.at(-2).reason).toBe('Sam Seller is disabled: not rung.');
    expect(result.result).toBe('voicemail');
    await t.ctx.db.updateTable('users').set({ status: 'active' }).where('id', '=', seller.id).execute();
  });

  it('routes a known caller by the contact’s handling strategy, or its group’s default external flow, before the number', async () => {
    const manager = await createUser(t.ctx, { tenant, role: 'admin', fields: { allow_manage_global_contacts: 1 } });
    const asManager = (url: string, body: object) =>
      t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { authorization: `Bearer ${manager.token}` }, payload: body });
    const vip = await asManager('/contacts', {
      name1: 'Important',
      name2: 'Client',
      contactPhoneNumbers: [{ phone_number: '+352691000222', type: 'mobile' }],
      handling_strategy: { type: 'call_flow', call_flow_id: ids.sales },
    });
    expect(vip.statusCode).toBe(201);
    const direct = (await simulate({ at: '2026-11-24T09:00:00Z', caller: '691 000 222' })).json().data;
    expect(path(direct.steps)).toEqual(['number:routed', 'contact:caller_routed', 'call_flow:entered', 'ring:answered']);
    expect(direct.steps[1].reason).toContain('the contact "Important Client"');
    expect(direct.answered_by).toMatchObject({ id: seller.id });

    const group = (await asManager('/contact-groups', { name: 'Partners', default_external_call_flow_id: ids.support })).json().data;
    expect(
      (await asManager('/contacts', { name1: 'Partner', contactPhoneNumbers: [{ phone_number: '+352691000333', type: 'mobile' }], groups: [group.id] }))
        .statusCode,
    ).toBe(201);
    const grouped = (await simulate({ at: '2026-11-24T09:00:00Z', caller: '+352691000333' })).json().data;
    expect(path(grouped.steps).slice(0, 3)).toEqual(['number:routed', 'contact:caller_routed', 'call_flow:entered']);
    expect(grouped.steps[1].reason).toContain('of the group "Partners"');
    expect(grouped.steps[2].name).toBe('Support');

    // An unknown caller, or none, goes by the number.
    expect(path((await simulate({ at: '2026-11-24T09:00:00Z', caller: '+352691999999', keys: ['1'] })).json().data.steps)[1]).toBe('call_flow:entered');
  });

  it('describes in OpenAPI what the code does with the caller: a known caller changes the route', async () => {
    const document = (await t.app.inject('/api/v1/openapi.json')).json();
    const operation = document.paths['/call-routing/simulate'].post;
    const schema = operation.requestBody.content['application/json'].schema;
    const caller = (schema.$ref ? document.components.schemas[schema.$ref.split('/').pop()] : schema).properties.caller;
    const texts = [operation.description as string, JSON.stringify(caller)];
    for (const text of texts) {
      expect(text).not.toMatch(/does not (depend|affect)|not depend on it/);
      expect(text).toMatch(/handling strategy/);
      expect(text).toMatch(/default external call flow/);
      expect(text).toMatch(/before the (dialled )?number's own/);
    }

    // What the description says, shown: the same number at the same instant, routed apart by the caller alone.
    const manager = await createUser(t.ctx, { tenant, role: 'admin', fields: { allow_manage_global_contacts: 1 } });
    const contact = await call('POST', '/contacts', manager.token, {
      name1: 'Routed',
      name2: 'Caller',
      contactPhoneNumbers: [{ phone_number: '+352691000444', type: 'mobile' }],
      handling_strategy: { type: 'call_flow', call_flow_id: ids.support },
    });
    expect(contact.statusCode).toBe(201);
    const at = '2026-11-24T09:00:00Z';
    const anonymous = (await simulate({ at, keys: ['1'] })).json().data;
    const known = (await simulate({ at, keys: ['1'], caller: '+352691000444' })).json().data;
    expect(anonymous.answered_by).toMatchObject({ id: seller.id });
    expect(known.answered_by).toMatchObject({ id: agent.id });
    expect(known.steps.map((step: Step) => step.name)).toContain('Support');
    expect(anonymous.steps.map((step: Step) => step.name)).not.toContain('Support');
  });

  it('refuses numbers that are not the PBX’s and bad input; lets readers simulate; keeps tenants apart', async () => {
    expect((await call('POST', '/call-routing/simulate', admin.token, { number: '+35227555999' })).statusCode).toBe(404);
    expect((await simulate({ keys: ['x'] })).statusCode).toBe(422);
    expect((await simulate({ at: 'yesterday' })).statusCode).toBe(422);
    expect((await simulate({ answer: 'sometimes' })).statusCode).toBe(422);
    expect((await simulate({}, agent.token)).statusCode).toBe(200);
    expect((await simulate({}, await createKey(t.ctx, tenant, 'integration', ['call-routing']))).statusCode).toBe(200);
    expect((await simulate({}, await createKey(t.ctx, tenant, 'integration', ['contacts']))).statusCode).toBe(403);
    const stranger = await createAdmin(t.ctx);
    const theirs = await simulate({}, stranger.token);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ message: ['Phone number not found.'] });
  });

  it('stops a loop that came about later and reports it', async () => {
    // Made possible only behind the graph check's back, as an old database might hold it.
    await t.ctx.db
      .updateTable('call_flows')
      .set({ entry: 'again', nodes: JSON.stringify([{ key: 'again', type: 'call_flow', call_flow_id: ids.main }]) })
      .where('id', '=', ids.support)
      .execute();
    await t.ctx.db
      .updateTable('call_flows')
      .set({ entry: 'hours', nodes: JSON.stringify([{ key: 'hours', type: 'call_flow', call_flow_id: ids.support }]) })
      .where('id', '=', ids.main)
      .execute();
    const result = (await simulate({ at: '2026-11-24T09:00:00Z' })).json().data;
    expect(result.result).toBe('loop');
    expect(result.steps.at(-1)).toMatchObject({ kind: 'loop' });
    const report = (await call('POST', '/call-routing/validate', admin.token)).json().data;
    expect(report.problems.map((p: { code: string }) => p.code)).toContain('cycle');
  });
});
