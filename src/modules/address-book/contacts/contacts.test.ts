import { describe, expect, it } from 'vitest';
import { bearer, useTestApp } from '../../../../test/helpers.js';
import { createKey, createTenant, createUser } from '../../../../test/factories.js';

describe('contacts', () => {
  const t = useTestApp();

  const manager = (tenant?: { pbxId: string }) => createUser(t.ctx, { tenant, fields: { allow_manage_global_contacts: 1 } });
  const post = (token: string, payload: object) => t.app.inject({ method: 'POST', url: '/api/v1/contacts', headers: bearer(token), payload });
  const get = (token: string, url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(token) });

  it('creates a global contact with E.164 numbers kept as typed, and reads it flat', async () => {
    const user = await manager();
    const created = await post(user.token, {
      name1: 'Weber',
      name2: 'Luc',
      email: 'luc@weber.example',
      company_name: 'Weber Sàrl',
      contactPhoneNumbers: [
        { phone_number: '621 123 456', label: 'Mobile', type: 'mobile', speed_dial: '11' },
        { phone_number: '0049 30 1234567', type: 'work' },
      ],
    });
    expect(created.statusCode).toBe(201);
    const data = created.json().data;
    expect(data).toMatchObject({
      pbx_id: user.pbxId,
      name1: 'Weber',
      name2: 'Luc',
      is_private: false,
      private_owner_id: null,
      editable: true,
      is_favorite: false,
      vip: false,
      groups: [],
      is_blocked_globally: false,
      blocked_by_users: [],
      handling_strategy: { type: 'default', call_flow_id: null, extension_id: null, user_id: null, sip_device_id: null },
    });
    expect(data.numbers).toMatchObject([
      { phone_number: '+352621123456', phone_number_as_typed: '621 123 456', label: 'Mobile', type: 'mobile', speed_dial: '11' },
      { phone_number: '+49301234567', phone_number_as_typed: '0049 30 1234567', label: null, type: 'work', speed_dial: null },
    ]);

    const read = await get(user.token, `/contacts/${data.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).not.toHaveProperty('data');
    expect(read.json()).toMatchObject({ id: data.id, name1: 'Weber', editable: true, is_favorite: false });

    // Integration keys: the per-user fields are omitted entirely.
    const key = await createKey(t.ctx, user.tenant, 'integration', ['contacts']);
    const asKey = await get(key, `/contacts/${data.id}`);
    expect(asKey.statusCode).toBe(200);
    expect(asKey.json()).not.toHaveProperty('editable');
    expect(asKey.json()).not.toHaveProperty('is_favorite');
    expect(asKey.json().name1).toBe('Weber');
  });

  it('uses the PBX country as default region', async () => {
    const tenant = await createTenant(t.ctx, { countryCode: 'DE' });
    const user = await manager(tenant);
    const created = await post(user.token, { name1: 'Berlin', contactPhoneNumbers: [{ phone_number: '030 1234567', type: 'work' }] });
    expect(created.json().data.numbers[0].phone_number).toBe('+49301234567');
  });

  it('rejects invalid input with 422', async () => {
    const user = await manager();
    const missing = await post(user.token, { email: 'not-an-email', contactPhoneNumbers: [{ phone_number: '12', type: 'cell' }] });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toHaveProperty('name1');
    expect(missing.json().errors).toHaveProperty('email');
    expect(missing.json().errors).toHaveProperty(['contactPhoneNumbers.0.type']);

    const badNumber = await post(user.token, { name1: 'X', contactPhoneNumbers: [{ phone_number: '12', type: 'work' }] });
    expect(badNumber.statusCode).toBe(422);
    expect(badNumber.json().errors['contactPhoneNumbers.0.phone_number']).toEqual(['The phone number field must be a valid phone number.']);

    const badGroup = await post(user.token, { name1: 'X', groups: ['00000000-0000-4000-8000-000000000000'] });
    expect(badGroup.statusCode).toBe(422);
    expect(badGroup.json().errors).toHaveProperty(['groups.0']);
  });

  it('keeps speed dials unique per PBX', async () => {
    const user = await manager();
    const first = await post(user.token, { name1: 'A', contactPhoneNumbers: [{ phone_number: '+352 621 000 001', type: 'work', speed_dial: '5' }] });
    expect(first.statusCode).toBe(201);
    const clash = await post(user.token, { name1: 'B', contactPhoneNumbers: [{ phone_number: '+352 621 000 002', type: 'work', speed_dial: '5' }] });
    expect(clash.statusCode).toBe(422);
    expect(clash.json().errors['contactPhoneNumbers.0.speed_dial']).toEqual(['The speed dial has already been taken.']);
    const twice = await post(user.token, {
      name1: 'C',
      contactPhoneNumbers: [
        { phone_number: '+352 621 000 003', type: 'work', speed_dial: '7' },
        { phone_number: '+352 621 000 004', type: 'work', speed_dial: '7' },
      ],
    });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors).toHaveProperty(['contactPhoneNumbers.1.speed_dial']);
    // Another PBX may use the same speed dial; the contact itself may keep it on update.
    const other = await manager();
    expect(
      (await post(other.token, { name1: 'D', contactPhoneNumbers: [{ phone_number: '+352 621 000 005', type: 'work', speed_dial: '5' }] })).statusCode,
    ).toBe(201);
    const id = first.json().data.id;
    const kept = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/contacts/${id}`,
      headers: bearer(user.token),
      payload: { name1: 'A2', contactPhoneNumbers: [{ phone_number: '+352621000001', type: 'home', speed_dial: '5' }] },
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().data.numbers[0]).toMatchObject({ id: first.json().data.numbers[0].id, speed_dial: '5', type: 'home' });
  });

  it('shows private contacts to their owner only; editable follows the global-contacts right', async () => {
    const owner = await createUser(t.ctx);
    const colleague = await createUser(t.ctx, { tenant: owner.tenant });
    const boss = await manager(owner.tenant);

    const global = await post(owner.token, { name1: 'Global' });
    expect(global.statusCode).toBe(403);
    const foreignOwner = await post(owner.token, { name1: 'Theirs', private_owner_id: colleague.id });
    expect(foreignOwner.statusCode).toBe(422);
    expect(foreignOwner.json().errors).toHaveProperty('private_owner_id');

    const mine = await post(owner.token, { name1: 'Mine', private_owner_id: owner.id, is_private: false });
    expect(mine.statusCode).toBe(201);
    expect(mine.json().data).toMatchObject({ is_private: true, private_owner_id: owner.id, editable: true });
    const id = mine.json().data.id;

    for (const other of [colleague, boss]) {
      const read = await get(other.token, `/contacts/${id}`);
      expect(read.statusCode).toBe(403);
      expect(read.json()).toEqual({ message: 'Contact not found.' });
      expect((await get(other.token, '/contacts')).json().data).toEqual([]);
      const put = await t.app.inject({ method: 'PUT', url: `/api/v1/contacts/${id}`, headers: bearer(other.token), payload: { name1: 'Hijack' } });
      expect(put.statusCode).toBe(404);
    }
    const key = await createKey(t.ctx, owner.tenant, 'integration', ['contacts']);
    expect((await get(key, `/contacts/${id}`)).statusCode).toBe(403);
    const keyPrivate = await post(key, { name1: 'Key private', private_owner_id: owner.id });
    expect(keyPrivate.statusCode).toBe(422);

    const shared = await post(boss.token, { name1: 'Shared' });
    const sharedId = shared.json().data.id;
    expect((await get(owner.token, `/contacts/${sharedId}`)).json()).toMatchObject({ editable: false });
    expect((await get(boss.token, `/contacts/${sharedId}`)).json()).toMatchObject({ editable: true });
    const denied = await t.app.inject({ method: 'PUT', url: `/api/v1/contacts/${sharedId}`, headers: bearer(owner.token), payload: { name1: 'No' } });
    expect(denied.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/contacts/${sharedId}`, headers: bearer(owner.token) })).statusCode).toBe(403);
    // An integration key writes global contacts.
    const byKey = await t.app.inject({ method: 'PUT', url: `/api/v1/contacts/${sharedId}`, headers: bearer(key), payload: { name1: 'Shared by CRM' } });
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json().data).not.toHaveProperty('editable');
  });

  it("refuses another tenant's contact: read 403 with a not-found message, writes 404", async () => {
    const user = await manager();
    const id = (await post(user.token, { name1: 'Secret' })).json().data.id;
    const stranger = await manager();
    const read = await get(stranger.token, `/contacts/${id}`);
    expect(read.statusCode).toBe(403);
    expect(read.json()).toEqual({ message: 'Contact not found.' });
    for (const [method, url] of [
      ['PUT', `/api/v1/contacts/${id}`],
      ['DELETE', `/api/v1/contacts/${id}`],
      ['PUT', `/api/v1/contacts/${id}/favorite`],
      ['PUT', `/api/v1/contacts/${id}/block`],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        headers: bearer(stranger.token),
        payload: method === 'PUT' && url.endsWith(id) ? { name1: 'x' } : {},
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: ['Contact not found.'] });
    }
    const key = await createKey(t.ctx, await createTenant(t.ctx), 'integration', ['contacts']);
    expect((await get(key, `/contacts/${id}`)).statusCode).toBe(403);
    expect((await get(stranger.token, '/contacts')).json().data).toEqual([]);
    // A key without the contacts scope is refused.
    const noScope = await createKey(t.ctx, user.tenant, 'integration', ['call-history']);
    expect((await get(noScope, `/contacts/${id}`)).statusCode).toBe(403);
  });

  it('replaces a contact on PUT (name1 required, is_private derived) and soft-deletes and restores it', async () => {
    const user = await manager();
    const created = (
      await post(user.token, { name1: 'Old', company_name: 'Co', vip: true, contactPhoneNumbers: [{ phone_number: '+352 621 111 111', type: 'work' }] })
    ).json().data;
    const noName = await t.app.inject({ method: 'PUT', url: `/api/v1/contacts/${created.id}`, headers: bearer(user.token), payload: { company_name: 'X' } });
    expect(noName.statusCode).toBe(422);
    expect(noName.json().errors).toHaveProperty('name1');
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/contacts/${created.id}`,
      headers: bearer(user.token),
      payload: { name1: 'New', private_owner_id: user.id },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toMatchObject({ name1: 'New', company_name: null, vip: false, numbers: [], is_private: true, private_owner_id: user.id });

    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/contacts/${created.id}`, headers: bearer(user.token) });
    expect(del.statusCode).toBe(204);
    expect((await get(user.token, `/contacts/${created.id}`)).statusCode).toBe(403);
    expect((await get(user.token, '/contacts')).json().data).toEqual([]);
    const trashed = await get(user.token, '/contacts?filter[trashed]=only');
    expect(trashed.json().data.map((c: { id: string }) => c.id)).toEqual([created.id]);
    expect(trashed.json().data[0].deleted_at).not.toBeNull();
    const again = await t.app.inject({ method: 'DELETE', url: `/api/v1/contacts/${created.id}`, headers: bearer(user.token) });
    expect(again.statusCode).toBe(404);
    const restored = await t.app.inject({ method: 'POST', url: `/api/v1/contacts/${created.id}/restore`, headers: bearer(user.token) });
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ id: created.id, deleted_at: null });
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/contacts/${created.id}/restore`, headers: bearer(user.token) })).statusCode).toBe(404);
  });

  it('lists with search over names, company, e-mail and numbers, filters, sort and pagination', async () => {
    const user = await manager();
    const mk = (payload: object) => post(user.token, payload).then((r) => r.json().data);
    const anna = await mk({
      name1: 'Anna',
      company_name: 'Zeta',
      email: 'anna@zeta.example',
      vip: true,
      contactPhoneNumbers: [{ phone_number: '621 222 333', type: 'mobile' }],
    });
    const bert = await mk({ name1: 'Bert', name2: 'Bauer', company_name: 'Alpha', contactPhoneNumbers: [{ phone_number: '+49 30 9876543', type: 'work' }] });
    const cleo = await mk({ name1: 'Cleo', email: 'cleo@home.example', private_owner_id: user.id });
    const ids = (r: { json(): { data: Array<{ id: string }> } }) => r.json().data.map((c) => c.id);

    expect(ids(await get(user.token, '/contacts?search=bauer'))).toEqual([bert.id]);
    expect(ids(await get(user.token, '/contacts?search=zeta'))).toEqual([anna.id]);
    expect(ids(await get(user.token, '/contacts?search=cleo@home'))).toEqual([cleo.id]);
    expect(ids(await get(user.token, '/contacts?search=222 333'))).toEqual([anna.id]);
    expect(ids(await get(user.token, '/contacts?search=9876543'))).toEqual([bert.id]);
    expect(ids(await get(user.token, '/contacts?filter[is_private]=true'))).toEqual([cleo.id]);
    expect(ids(await get(user.token, '/contacts?filter[vip]=true'))).toEqual([anna.id]);
    expect(ids(await get(user.token, '/contacts?sort=-name1'))).toEqual([cleo.id, bert.id, anna.id]);
    expect(ids(await get(user.token, '/contacts?filter[is_private]=false&sort=company_name,name1'))).toEqual([bert.id, anna.id]);
    expect(ids(await get(user.token, '/contacts?filter[is_private]=false&sort=-company_name'))).toEqual([anna.id, bert.id]);

    const page = await get(user.token, '/contacts?perPage=2&page=2');
    expect(page.json().data).toHaveLength(1);
    expect(page.json().meta).toMatchObject({ current_page: 2, per_page: 2, total: 3, last_page: 2, from: 3, to: 3 });
    expect(page.json().links.prev).toContain('page=1');

    const withOwner = await get(user.token, `/contacts?filter[is_private]=true&include=private_owner`);
    expect(withOwner.json().data[0].private_owner).toMatchObject({ id: user.id, email: user.email });
    expect((await get(user.token, '/contacts?include=nope')).statusCode).toBe(422);
    expect((await get(user.token, '/contacts?sort=password')).statusCode).toBe(422);
    expect((await get(user.token, '/contacts?filter[trashed]=sometimes')).statusCode).toBe(422);
  });

  it('keeps favorites per user (user tokens only)', async () => {
    const user = await manager();
    const colleague = await createUser(t.ctx, { tenant: user.tenant });
    const id = (await post(user.token, { name1: 'Fav' })).json().data.id;
    const other = (await post(user.token, { name1: 'Other' })).json().data.id;
    const fav = await t.app.inject({ method: 'PUT', url: `/api/v1/contacts/${id}/favorite`, headers: bearer(user.token) });
    expect(fav.statusCode).toBe(200);
    expect(fav.json().data.is_favorite).toBe(true);
    expect((await t.app.inject({ method: 'PUT', url: `/api/v1/contacts/${id}/favorite`, headers: bearer(user.token) })).statusCode).toBe(200);
    expect((await get(colleague.token, `/contacts/${id}`)).json().is_favorite).toBe(false);
    expect((await get(user.token, '/contacts?filter[is_favorite]=true')).json().data.map((c: { id: string }) => c.id)).toEqual([id]);
    expect((await get(user.token, '/contacts?filter[is_favorite]=false')).json().data.map((c: { id: string }) => c.id)).toEqual([other]);
    const unfav = await t.app.inject({ method: 'DELETE', url: `/api/v1/contacts/${id}/favorite`, headers: bearer(user.token) });
    expect(unfav.json().data.is_favorite).toBe(false);
    const key = await createKey(t.ctx, user.tenant, 'integration', ['contacts']);
    expect((await t.app.inject({ method: 'PUT', url: `/api/v1/contacts/${id}/favorite`, headers: bearer(key) })).statusCode).toBe(403);
  });

  it('blocks per user and globally', async () => {
    const boss = await manager();
    const user = await createUser(t.ctx, { tenant: boss.tenant });
    const id = (await post(boss.token, { name1: 'Spammer' })).json().data.id;
    const mine = await t.app.inject({ method: 'PUT', url: `/api/v1/contacts/${id}/block`, headers: bearer(user.token), payload: { scope: 'user' } });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data).toMatchObject({ is_blocked_globally: false, blocked_by_users: [{ id: user.id, email: user.email }] });
    expect((await get(user.token, '/contacts?filter[is_blocked]=true')).json().data).toHaveLength(1);
    expect((await get(boss.token, '/contacts?filter[is_blocked]=true')).json().data).toHaveLength(0);

    const globalDenied = await t.app.inject({ method: 'PUT', url: `/api/v1/contacts/${id}/block`, headers: bearer(user.token), payload: { scope: 'global' } });
    expect(globalDenied.statusCode).toBe(403);
    const bad = await t.app.inject({ method: 'PUT', url: `/api/v1/contacts/${id}/block`, headers: bearer(user.token), payload: { scope: 'everyone' } });
    expect(bad.statusCode).toBe(422);
    const global = await t.app.inject({ method: 'PUT', url: `/api/v1/contacts/${id}/block`, headers: bearer(boss.token), payload: { scope: 'global' } });
    expect(global.json().data.is_blocked_globally).toBe(true);
    expect((await get(boss.token, '/contacts?filter[is_blocked]=true')).json().data).toHaveLength(1);

    const unblock = await t.app.inject({ method: 'DELETE', url: `/api/v1/contacts/${id}/block?scope=user`, headers: bearer(user.token) });
    expect(unblock.json().data).toMatchObject({ is_blocked_globally: true, blocked_by_users: [] });
    const key = await createKey(t.ctx, boss.tenant, 'integration', ['contacts']);
    const keyUnblock = await t.app.inject({ method: 'DELETE', url: `/api/v1/contacts/${id}/block`, headers: bearer(key) });
    expect(keyUnblock.json().data.is_blocked_globally).toBe(false);
  });

  it('validates handling_strategy ids against the PBX', async () => {
    const user = await manager();
    const colleague = await createUser(t.ctx, { tenant: user.tenant });
    const stranger = await createUser(t.ctx);
    const ok = await post(user.token, { name1: 'VIP', handling_strategy: { type: 'user', user_id: colleague.id } });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.handling_strategy).toEqual({ type: 'user', call_flow_id: null, extension_id: null, user_id: colleague.id, sip_device_id: null });
    const foreign = await post(user.token, { name1: 'X', handling_strategy: { type: 'user', user_id: stranger.id } });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors).toHaveProperty(['handling_strategy.user_id']);
    const missing = await post(user.token, { name1: 'X', handling_strategy: { type: 'call_flow' } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toHaveProperty(['handling_strategy.call_flow_id']);
    const unknown = await post(user.token, { name1: 'X', handling_strategy: { type: 'extension', extension_id: '00000000-0000-4000-8000-000000000001' } });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toHaveProperty(['handling_strategy.extension_id']);
    const badType = await post(user.token, { name1: 'X', handling_strategy: { type: 'voicemail' } });
    expect(badType.statusCode).toBe(422);
  });

  it('looks callers up by number in any common format', async () => {
    const user = await manager();
    const owner = await createUser(t.ctx, { tenant: user.tenant });
    const global = (await post(user.token, { name1: 'Caller', contactPhoneNumbers: [{ phone_number: '+352 621 555 666', type: 'mobile' }] })).json().data;
    const priv = (
      await post(owner.token, { name1: 'Mine', private_owner_id: owner.id, contactPhoneNumbers: [{ phone_number: '621555666', type: 'mobile' }] })
    ).json().data;
    await post(user.token, { name1: 'Other', contactPhoneNumbers: [{ phone_number: '+352 621 555 667', type: 'mobile' }] });

    for (const number of ['+352621555666', '00352 621 555 666', '621 555 666', '(+352) 621-555-666']) {
      const found = await get(user.token, `/contacts/lookup?number=${encodeURIComponent(number)}`);
      expect(found.statusCode).toBe(200);
      expect(found.json().number).toBe('+352621555666');
      expect(found.json().data.map((c: { id: string }) => c.id)).toEqual([global.id]);
    }
    const asOwner = await get(owner.token, '/contacts/lookup?number=621555666');
    expect(
      asOwner
        .json()
        .data.map((c: { id: string }) => c.id)
        .sort(),
    ).toEqual([global.id, priv.id].sort());
    const pbxKey = await createKey(t.ctx, user.tenant, 'pbx');
    const asPbx = await get(pbxKey, '/contacts/lookup?number=621555666');
    expect(asPbx.statusCode).toBe(200);
    expect(asPbx.json().data.map((c: { id: string }) => c.id)).toEqual([global.id]);
    expect(asPbx.json().data[0]).not.toHaveProperty('editable');
    expect((await get(user.token, '/contacts/lookup?number=hello')).statusCode).toBe(422);
    expect((await get(user.token, '/contacts/lookup')).statusCode).toBe(422);
    const stranger = await manager();
    expect((await get(stranger.token, '/contacts/lookup?number=621555666')).json().data).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/contacts' })).statusCode).toBe(401);
  });
});
