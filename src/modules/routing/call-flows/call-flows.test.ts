import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createKey, createUser, type TestTenant, type TestUser } from '../../../../test/factories.js';
import { createIvr, createSoundFile } from '../../../../test/routing-factories.js';

const FLOW_KEYS = ['created_at', 'deleted_at', 'description', 'entry', 'id', 'name', 'nodes', 'pbx_id', 'updated_at'];

describe('call flows and the routing graph', () => {
  let admin: TestUser;
  let tenant: TestTenant;
  let agent: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    admin = await createAdmin(t.ctx);
    tenant = admin.tenant;
    agent = await createUser(t.ctx, { tenant });
  });
  const call = apiCaller(() => t);
  const create = (body: object) => call('POST', '/call-flows', admin.token, body);
  const ringAgent = (key = 'ring', extra: object = {}) => ({ key, type: 'ring_user', user_id: agent.id, ...extra });
  const problemsOf = (response: { json: () => unknown }) => (response.json() as { problems: Array<{ code: string; path: string; message: string }> }).problems;

  it('creates a flow of every node type, normalised, in the contract’s envelope', async () => {
    const announcement = await createSoundFile(t.ctx, tenant, 'announcement');
    const ivr = await createIvr(t.ctx, tenant);
    const queue = (await call('POST', '/queues', admin.token, { name: 'Every node queue', members: [{ type: 'user', id: agent.id }] })).json().data.id;
    const extension = (await call('POST', '/extensions', admin.token, { number: '740', name: 'Lobby', user_id: null })).json().data;
    const target = (await create({ name: 'Target', entry: 'bye', nodes: [{ key: 'bye', type: 'hangup' }] })).json().data.id;
    // One node of each type up to the ring group; what the ring group falls through to and the rest vary below.
    const everyNode = (groupNoAnswer: string, ...rest: object[]) => ({
      name: 'Every node',
      description: 'All of them',
      entry: 'hours',
      nodes: [
        {
          key: 'hours',
          type: 'time_condition',
          open_hours: [{ days: [1, 2, 3, 4, 5], from: '08:00', to: '18:00' }],
          open: 'welcome',
          closed: 'out',
          holiday: 'group',
        },
        { key: 'welcome', type: 'play', sound_file_id: announcement, next: 'ring' },
        ringAgent('ring', { no_answer: 'desk' }),
        { key: 'desk', type: 'ring_extension', extension_id: extension.id, timeout_seconds: 10, no_answer: 'menu' },
        { key: 'menu', type: 'ivr', ivr_id: ivr },
        { key: 'group', type: 'ring_group', strategy: 'sequential', members: [{ user_id: agent.id, timeout_seconds: 15 }], no_answer: groupNoAnswer },
        ...rest,
      ],
    });
    const out = { key: 'out', type: 'forward', number: '691 123 456' };
    const response = await create(
      everyNode(
        'queue',
        { key: 'queue', type: 'queue', queue_id: queue },
        out,
        { key: 'unused-jump', type: 'call_flow', call_flow_id: target },
        { key: 'box', type: 'voicemail', user_id: agent.id },
      ),
    );
    // Two nodes nothing leads to: refused, each named.
    expect(response.statusCode).toBe(422);
    expect(problemsOf(response).map((p) => [p.code, p.path.split('/').slice(2).join('/')])).toEqual([
      ['unreachable', 'nodes/unused-jump'],
      ['unreachable', 'nodes/box'],
    ]);

    const fixed = await create(everyNode('jump', { key: 'jump', type: 'call_flow', call_flow_id: target }, out));
    expect(fixed.statusCode).toBe(201);
    const flow = fixed.json().data;
    expect(Object.keys(flow).sort()).toEqual(FLOW_KEYS);
    expect(flow.nodes[0]).toMatchObject({ public_holidays_country: 'LU', tenant_holidays: true });
    expect(flow.nodes[2]).toMatchObject({ timeout_seconds: 20 });
    expect(flow.nodes[7].number).toBe('+352691123456');

    const read = await call('GET', `/call-flows/${flow.id}?include=used_by`, agent.token);
    expect(read.statusCode).toBe(200);
    expect(read.json().data.used_by).toEqual([]);
    const byType = await call('GET', '/call-flows?filter[node_type]=time_condition', admin.token);
    expect(byType.json().data.map((f: { id: string }) => f.id)).toEqual([flow.id]);
    const byTarget = await call('GET', `/call-flows?filter[target_id]=${target}`, admin.token);
    expect(byTarget.json().data.map((f: { id: string }) => f.id)).toEqual([flow.id]);
    // The target is used now: it cannot go.
    const refused = await call('DELETE', `/call-flows/${target}`, admin.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().used_by).toEqual([{ type: 'call_flow', id: flow.id, name: 'Every node', path: 'nodes.jump.call_flow_id' }]);
  });

  it('refuses a body that does not hold together, naming its fields', async () => {
    const cases: Array<[object, string]> = [
      [
        {
          name: 'x',
          entry: 'a',
          nodes: [
            { key: 'a', type: 'hangup' },
            { key: 'a', type: 'hangup' },
          ],
        },
        'nodes.1.key',
      ],
      [{ name: 'x', entry: 'nope', nodes: [{ key: 'a', type: 'hangup' }] }, 'entry'],
      [{ name: 'x', entry: 'a', nodes: [{ key: 'a', type: 'ring_user', user_id: agent.id, no_answer: 'ghost' }] }, 'nodes.0.no_answer'],
      [{ name: 'x', entry: 'a', nodes: [{ key: 'a', type: 'forward', number: 'abc' }] }, 'nodes.0.number'],
      [
        {
          name: 'x',
          entry: 'a',
          nodes: [{ key: 'a', type: 'time_condition', open_hours: [{ days: [1], from: '18:00', to: '08:00' }], open: 'a', closed: 'a' }],
        },
        'nodes.0.open_hours.0.to',
      ],
    ];
    for (const [body, field] of cases) {
      const response = await create(body);
      expect(response.statusCode, field).toBe(422);
      expect(Object.keys(response.json().errors), field).toContain(field);
    }
    const unknownType = await create({ name: 'x', entry: 'a', nodes: [{ key: 'a', type: 'teleport' }] });
    expect(unknownType.statusCode).toBe(422);
    const missingField = await create({ name: 'x', entry: 'a', nodes: [{ key: 'a', type: 'ring_user' }] });
    expect(missingField.statusCode).toBe(422);
    expect(JSON.stringify(missingField.json().errors)).toContain('user_id');
    const badKey = await create({ name: 'x', entry: 'a b', nodes: [{ key: 'a b', type: 'hangup' }] });
    expect(badKey.statusCode).toBe(422);
  });

  it('refuses a node that is not an object at validation, naming it (no 500, no business check first)', async () => {
    const flow = (await create({ name: 'Objects only', entry: 'a', nodes: [{ key: 'a', type: 'hangup' }] })).json().data;
    for (const node of [null, 1, 'a', [], true]) {
      for (const [index, response] of [
        [0, await create({ name: 'x', entry: 'a', nodes: [node] })],
        [1, await call('PATCH', `/call-flows/${flow.id}`, admin.token, { nodes: [{ key: 'a', type: 'hangup' }, node] })],
      ] as const) {
        expect(response.statusCode, JSON.stringify(node)).toBe(422);
        expect(response.json(), JSON.stringify(node)).toEqual({
          message: `The nodes.${index} field must be an object.`,
          errors: { [`nodes.${index}`]: [`The nodes.${index} field must be an object.`] },
        });
      }
    }
  });

  it('refuses each routing problem with 422 naming its path', async () => {
    const ghost = randomUUID();
    const dangling = await create({ name: 'Dangling', entry: 'a', nodes: [{ key: 'a', type: 'ring_user', user_id: ghost }] });
    expect(dangling.statusCode).toBe(422);
    expect(problemsOf(dangling)[0]).toMatchObject({ code: 'dangling' });
    expect(problemsOf(dangling)[0].path).toMatch(/^call_flows\/[0-9a-f-]{36}\/nodes\/a\/user_id$/);

    const noClosed = await create({
      name: 'No closed',
      entry: 'tc',
      nodes: [
        { key: 'tc', type: 'time_condition', open_hours: [{ days: [1], from: '08:00', to: '09:00' }], open: 'bye' },
        { key: 'bye', type: 'hangup' },
      ],
    });
    expect(problemsOf(noClosed).map((p) => p.code)).toEqual(['no_closed_branch']);
    expect(problemsOf(noClosed)[0].path).toMatch(/\/nodes\/tc\/closed$/);

    const music = await createSoundFile(t.ctx, tenant, 'music');
    const wrongSound = await create({ name: 'Music as announcement', entry: 'p', nodes: [{ key: 'p', type: 'play', sound_file_id: music }] });
    expect(problemsOf(wrongSound).map((p) => p.code)).toEqual(['wrong_sound_type']);

    const loop = await create({
      name: 'Loop',
      entry: 'a',
      nodes: [ringAgent('a', { no_answer: 'b' }), { key: 'b', type: 'play', sound_file_id: await createSoundFile(t.ctx, tenant, 'announcement'), next: 'a' }],
    });
    expect(problemsOf(loop).map((p) => p.code)).toEqual(['cycle']);
    expect(problemsOf(loop)[0].message).toMatch(/node "a" → .*node "b" → .*node "a"/);

    const disabled = await createUser(t.ctx, { tenant, fields: { status: 'disabled' } });
    const onlyDisabled = await create({ name: 'Disabled', entry: 'a', nodes: [{ key: 'a', type: 'ring_user', user_id: disabled.id }] });
    expect(problemsOf(onlyDisabled).map((p) => p.code)).toEqual(['no_one_to_ring']);
    const withFallback = await create({
      name: 'Disabled with fallback',
      entry: 'a',
      nodes: [
        { key: 'a', type: 'ring_user', user_id: disabled.id, no_answer: 'vm' },
        { key: 'vm', type: 'voicemail', user_id: agent.id },
      ],
    });
    expect(withFallback.statusCode).toBe(201);

    const empty = (await call('POST', '/queues', admin.token, { name: 'Nobody here' })).json().data.id;
    const toEmpty = await create({ name: 'Empty queue', entry: 'q', nodes: [{ key: 'q', type: 'queue', queue_id: empty }] });
    expect(problemsOf(toEmpty).map((p) => p.code)).toEqual(['empty_queue']);
    expect(problemsOf(toEmpty)[0].path).toBe(`queues/${empty}/members`);
    await call('PATCH', `/queues/${empty}`, admin.token, { overflow: { type: 'voicemail', id: agent.id } });
    expect((await create({ name: 'Queue with overflow', entry: 'q', nodes: [{ key: 'q', type: 'queue', queue_id: empty }] })).statusCode).toBe(201);
  });

  it('finds loops across flows, IVRs and queues, and lets a caller choice loop', async () => {
    const ivr = await createIvr(t.ctx, tenant, { name: 'Loop menu' });
    const toMenu = (await create({ name: 'To the menu', entry: 'm', nodes: [{ key: 'm', type: 'ivr', ivr_id: ivr }] })).json().data.id;
    // A key that leads back to the menu is a caller's choice: fine.
    const back = await call('POST', `/ivrs/${ivr}/steps`, admin.token, { option: '0', target_type: 'App\\Models\\CallFlow', target_id: toMenu });
    expect(back.statusCode).toBe(201);
    // The default step on timeout leads back without the caller doing anything: a loop once it is the default action.
    expect(
      (await call('POST', `/ivrs/${ivr}/steps`, admin.token, { option: 'default', target_type: 'App\\Models\\CallFlow', target_id: toMenu })).statusCode,
    ).toBe(201);
    const looping = await call('PATCH', `/ivrs/${ivr}`, admin.token, { default_action: 'default_step' });
    expect(looping.statusCode).toBe(422);
    expect(problemsOf(looping).map((p) => p.code)).toEqual(['cycle']);
    expect(problemsOf(looping)[0].message).toContain('IVR "Loop menu" (default step)');

    // Flow A -> flow B -> flow A.
    const a = (await create({ name: 'A', entry: 'x', nodes: [{ key: 'x', type: 'hangup' }] })).json().data.id;
    const b = (await create({ name: 'B', entry: 'y', nodes: [{ key: 'y', type: 'call_flow', call_flow_id: a }] })).json().data.id;
    const closing = await call('PATCH', `/call-flows/${a}`, admin.token, { entry: 'x', nodes: [{ key: 'x', type: 'call_flow', call_flow_id: b }] });
    expect(closing.statusCode).toBe(422);
    expect(problemsOf(closing)[0].code).toBe('cycle');
    // A queue overflowing into a flow that queues again.
    const queue = (await call('POST', '/queues', admin.token, { name: 'Loop queue', members: [{ type: 'user', id: agent.id }] })).json().data.id;
    const queued = (await create({ name: 'Queued', entry: 'q', nodes: [{ key: 'q', type: 'queue', queue_id: queue }] })).json().data.id;
    const overflowLoop = await call('PATCH', `/queues/${queue}`, admin.token, { overflow: { type: 'call_flow', id: queued } });
    expect(overflowLoop.statusCode).toBe(422);
    expect(problemsOf(overflowLoop)[0].code).toBe('cycle');
  });

  it('lets problems that arose later stand without blocking other changes; validate lists them', async () => {
    const later = await createUser(t.ctx, { tenant });
    const flow = (await create({ name: 'Later', entry: 'a', nodes: [{ key: 'a', type: 'ring_user', user_id: later.id }] })).json().data.id;
    await t.ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', later.id).execute();
    const renamed = await call('PATCH', `/call-flows/${flow}`, admin.token, { name: 'Later, renamed' });
    expect(renamed.statusCode).toBe(200);
    const report = await call('POST', '/call-routing/validate', agent.token);
    expect(report.statusCode).toBe(200);
    expect(report.json().data.valid).toBe(false);
    expect(report.json().data.problems).toContainEqual(
      expect.objectContaining({ code: 'no_one_to_ring', severity: 'error', path: `call_flows/${flow}/nodes/a/user_id` }),
    );
  });

  it('routes phone numbers, contacts and contact groups to flows, and keeps used flows', async () => {
    const flow = (await create({ name: 'Reception', entry: 'a', nodes: [ringAgent('a')] })).json().data.id;
    const number = await call('POST', '/phone-numbers', admin.token, { number: '+35227999001', destination_type: 'call_flow', destination_id: flow });
    expect(number.statusCode).toBe(201);
    expect(
      (await call('POST', '/phone-numbers', admin.token, { number: '+35227999002', destination_type: 'call_flow', destination_id: randomUUID() })).statusCode,
    ).toBe(422);
    const manager = await createUser(t.ctx, { tenant, role: 'admin', fields: { allow_manage_global_contacts: 1 } });
    const group = await call('POST', '/contact-groups', manager.token, { name: 'VIP', default_external_call_flow_id: flow });
    expect(group.statusCode).toBe(201);
    const refused = await call('DELETE', `/call-flows/${flow}`, admin.token);
    expect(refused.statusCode).toBe(409);
    expect(
      refused
        .json()
        .used_by.map((u: { type: string }) => u.type)
        .sort(),
    ).toEqual(['contact_group', 'phone_number']);
    const used = await call('GET', `/call-flows/${flow}?include=used_by`, admin.token);
    expect(used.json().data.used_by).toHaveLength(2);

    const free = (await create({ name: 'Free', entry: 'a', nodes: [ringAgent('a')] })).json().data.id;
    expect((await call('DELETE', `/call-flows/${free}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `/call-flows/${free}`, admin.token)).statusCode).toBe(404);
    expect((await call('GET', '/call-flows?filter[trashed]=only', admin.token)).json().data.map((f: { id: string }) => f.id)).toContain(free);
    const restored = await call('POST', `/call-flows/${free}/restore`, admin.token);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data.deleted_at).toBeNull();
  });

  it('keeps users and extensions that routing rings (409 with the list) until it no longer does', async () => {
    const person = await createUser(t.ctx, { tenant, fields: { first_name: 'Kept', last_name: 'Person' } });
    const extension = (await call('POST', '/extensions', admin.token, { number: '741', name: 'Kept desk', user_id: null })).json().data;
    const flow = (
      await create({
        name: 'Keeps them',
        entry: 'a',
        nodes: [
          { key: 'a', type: 'ring_user', user_id: person.id, no_answer: 'b' },
          { key: 'b', type: 'ring_extension', extension_id: extension.id },
        ],
      })
    ).json().data.id;
    const user = await call('DELETE', `/users/${person.id}`, admin.token);
    expect(user.statusCode).toBe(409);
    expect(user.json()).toEqual({
      message: 'The user is still used by call flow "Keeps them".',
      used_by: [{ type: 'call_flow', id: flow, name: 'Keeps them', path: 'nodes.a.user_id' }],
    });
    const desk = await call('DELETE', `/extensions/${extension.id}`, admin.token);
    expect(desk.statusCode).toBe(409);
    expect(desk.json().used_by[0]).toMatchObject({ type: 'call_flow', path: 'nodes.b.extension_id' });
    expect((await call('PATCH', `/call-flows/${flow}`, admin.token, { entry: 'x', nodes: [{ key: 'x', type: 'hangup' }] })).statusCode).toBe(200);
    expect((await call('DELETE', `/users/${person.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('DELETE', `/extensions/${extension.id}`, admin.token)).statusCode).toBe(204);
  });

  it('lets users and call-routing keys read, only administrators write, and no other tenant in', async () => {
    const flow = (await create({ name: 'Guarded', entry: 'a', nodes: [ringAgent('a')] })).json().data.id;
    expect((await call('POST', '/call-flows', agent.token, { name: 'Mine', entry: 'a', nodes: [{ key: 'a', type: 'hangup' }] })).statusCode).toBe(403);
    expect((await call('PATCH', `/call-flows/${flow}`, agent.token, { name: 'Mine' })).statusCode).toBe(403);
    const key = await createKey(t.ctx, tenant, 'integration', ['call-routing']);
    expect((await call('GET', '/call-flows', key)).statusCode).toBe(200);
    expect((await call('POST', '/call-routing/validate', key)).statusCode).toBe(200);
    expect((await call('DELETE', `/call-flows/${flow}`, key)).statusCode).toBe(403);
    const otherKey = await createKey(t.ctx, tenant, 'integration', ['contacts']);
    expect((await call('GET', '/call-flows', otherKey)).statusCode).toBe(403);

    const stranger = await createAdmin(t.ctx);
    expect((await call('GET', `/call-flows/${flow}`, stranger.token)).statusCode).toBe(404);
    expect((await call('PATCH', `/call-flows/${flow}`, stranger.token, { name: 'Taken' })).statusCode).toBe(404);
    expect((await call('DELETE', `/call-flows/${flow}`, stranger.token)).statusCode).toBe(404);
    // Another tenant's user, queue or sound file is as good as none.
    const theirs = await create({ name: 'Theirs', entry: 'a', nodes: [{ key: 'a', type: 'ring_user', user_id: stranger.id }] });
    expect(problemsOf(theirs)[0].code).toBe('dangling');
    expect((await call('GET', '/call-flows', stranger.token)).json().data).toEqual([]);
  });
});
