import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createKey, createUser } from '../../../../test/factories.js';

describe('contact groups', () => {
  const t = useTestApp();

  const manager = (tenant?: { pbxId: string }) => createUser(t.ctx, { tenant, fields: { allow_manage_global_contacts: 1 } });
  const call = apiCaller(() => t);

  it('creates, reads, lists, replaces and deletes a group; contacts show it with its users', async () => {
    const boss = await manager();
    const member = await createUser(t.ctx, { tenant: boss.tenant });
    const created = await call('POST', '/contact-groups', boss.token, {
      name: 'Suppliers',
      description: 'Who we buy from',
      allow_call_pickups: true,
      external_uid: 'crm-1',
      users: [member.id],
    });
    expect(created.statusCode).toBe(201);
    const group = created.json().data;
    expect(group).toMatchObject({
      pbx_id: boss.pbxId,
      name: 'Suppliers',
      description: 'Who we buy from',
      allow_call_pickups: true,
      allow_default_pbxes_outgoing_phone_numbers: false,
      display_tab_to_everyone_inside_voxbi: false,
      default_internal_call_flow_id: null,
      default_external_call_flow_id: null,
      extension_id_shown_outside_the_group: null,
      default_caller_identity_id: null,
      external_uid: 'crm-1',
      users: [{ id: member.id, first_name: 'Test', email: member.email }],
    });
    expect((await call('GET', `/contact-groups/${group.id}`, member.token)).json().data.name).toBe('Suppliers');
    const list = await call('GET', '/contact-groups?search=suppl', member.token);
    expect(list.json().data.map((g: { id: string }) => g.id)).toEqual([group.id]);
    expect(list.json().meta.total).toBe(1);

    const contact = await call('POST', '/contacts', boss.token, { name1: 'Acme', groups: [group.id] });
    expect(contact.json().data.groups).toMatchObject([{ id: group.id, name: 'Suppliers', users: [{ id: member.id }] }]);
    const byGroup = await call('GET', `/contacts?filter[group_id]=${group.id}`, boss.token);
    expect(byGroup.json().data.map((c: { id: string }) => c.id)).toEqual([contact.json().data.id]);

    const put = await call('PUT', `/contact-groups/${group.id}`, boss.token, { name: 'Vendors', display_tab_to_everyone_inside_voxbi: true });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toMatchObject({
      name: 'Vendors',
      description: null,
      allow_call_pickups: false,
      display_tab_to_everyone_inside_voxbi: true,
      users: [],
    });

    expect((await call('DELETE', `/contact-groups/${group.id}`, boss.token)).statusCode).toBe(204);
    expect((await call('GET', `/contact-groups/${group.id}`, boss.token)).statusCode).toBe(404);
    const after = await call('GET', `/contacts/${contact.json().data.id}`, boss.token);
    expect(after.statusCode).toBe(200);
    expect(after.json().groups).toEqual([]);
  });

  it('rejects bad input with 422: missing or duplicate name, unknown references and users', async () => {
    const boss = await manager();
    const stranger = await createUser(t.ctx);
    expect((await call('POST', '/contact-groups', boss.token, {})).json().errors).toHaveProperty('name');
    expect((await call('POST', '/contact-groups', boss.token, { name: 'Dup' })).statusCode).toBe(201);
    const dup = await call('POST', '/contact-groups', boss.token, { name: 'Dup' });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors.name).toEqual(['The name has already been taken.']);
    const refs = await call('POST', '/contact-groups', boss.token, {
      name: 'Refs',
      default_internal_call_flow_id: '00000000-0000-4000-8000-000000000001',
      extension_id_shown_outside_the_group: '00000000-0000-4000-8000-000000000002',
      default_caller_identity_id: '00000000-0000-4000-8000-000000000003',
      users: [stranger.id],
    });
    expect(refs.statusCode).toBe(422);
    expect(Object.keys(refs.json().errors).sort()).toEqual([
      'default_caller_identity_id',
      'default_internal_call_flow_id',
      'extension_id_shown_outside_the_group',
      'users.0',
    ]);
  });

  it('lets only managers and integration keys write; other tenants see nothing', async () => {
    const boss = await manager();
    const user = await createUser(t.ctx, { tenant: boss.tenant });
    expect((await call('POST', '/contact-groups', user.token, { name: 'Nope' })).statusCode).toBe(403);
    const key = await createKey(t.ctx, boss.tenant, 'integration', ['contacts']);
    const byKey = await call('POST', '/contact-groups', key, { name: 'From CRM' });
    expect(byKey.statusCode).toBe(201);
    const id = byKey.json().data.id;
    expect((await call('PUT', `/contact-groups/${id}`, user.token, { name: 'Mine now' })).statusCode).toBe(403);
    expect((await call('DELETE', `/contact-groups/${id}`, user.token)).statusCode).toBe(403);
    const stranger = await manager();
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await call(method, `/contact-groups/${id}`, stranger.token, payload);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: ['Contact group not found.'] });
    }
    expect((await call('GET', '/contact-groups', stranger.token)).json().data).toEqual([]);
    expect((await call('POST', '/contacts', boss.token, { name1: 'x', groups: [id] })).statusCode).toBe(201);
    expect((await call('POST', '/contacts', stranger.token, { name1: 'x', groups: [id] })).statusCode).toBe(422);
  });
});
