import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createKey, createTenant, createUser } from '../../../../test/factories.js';

describe('twinnings', () => {
  const t = useTestApp();

  const call = apiCaller(() => t);

  it('creates a manual twinning with the number normalised to E.164 using the PBX country', async () => {
    const user = await createUser(t.ctx);
    const created = await call('POST', `/users/${user.id}/twinnings`, user.token, { phone_number: '691 123 456', delay: 5 });
    expect(created.statusCode).toBe(201);
    const twinning = created.json().data;
    expect(twinning).toMatchObject({
      user_id: user.id,
      status: 'enabled',
      phone_number: '+352691123456',
      delay: 5,
      sync_source: 'manual',
      type: 'mobile',
      dial_strategy: 'gsm_only',
      fmc_enabled: false,
      backup_phone_number: null,
    });
    expect(Object.keys(twinning).sort()).toEqual(
      [
        'backup_phone_number',
        'created_at',
        'delay',
        'dial_strategy',
        'fmc_enabled',
        'id',
        'phone_number',
        'status',
        'sync_source',
        'type',
        'updated_at',
        'user_id',
      ].sort(),
    );
    const list = await call('GET', `/users/${user.id}/twinnings?filter[status]=enabled`, user.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((x: { id: string }) => x.id)).toEqual([twinning.id]);
    expect(list.json().meta.total).toBe(1);
  });

  it('PUT and PATCH change only the supplied fields and share one validation', async () => {
    const user = await createUser(t.ctx);
    const { id } = (await call('POST', `/users/${user.id}/twinnings`, user.token, { phone_number: '+352691000001', delay: 3 })).json().data;
    for (const method of ['PUT', 'PATCH'] as const) {
      const disabled = await call(method, `/users/${user.id}/twinnings/${id}`, user.token, { status: 'disabled' });
      expect(disabled.statusCode).toBe(200);
      expect(disabled.json().data).toMatchObject({ status: 'disabled', phone_number: '+352691000001', delay: 3 });
      const enabled = await call(method, `/users/${user.id}/twinnings/${id}`, user.token, { status: 'enabled' });
      expect(enabled.json().data.status).toBe('enabled');

      for (const [body, field] of [
        [{ user_id: user.id }, 'user_id'],
        [{ sync_source: 'provision' }, 'sync_source'],
        [{ delay: -1 }, 'delay'],
        [{ phone_number: '1'.repeat(25) }, 'phone_number'],
        [{ backup_phone_number: '1'.repeat(25) }, 'backup_phone_number'],
        [{ phone_number: '12' }, 'phone_number'],
        [{ type: 'fax' }, 'type'],
      ] as const) {
        const refused = await call(method, `/users/${user.id}/twinnings/${id}`, user.token, body);
        expect(refused.statusCode, `${method} ${JSON.stringify(body)}`).toBe(422);
        expect(refused.json().errors).toHaveProperty(field);
      }
    }
    const after = await call('GET', `/users/${user.id}/twinnings/${id}`, user.token);
    expect(after.json().data).toMatchObject({ status: 'enabled', phone_number: '+352691000001', delay: 3, sync_source: 'manual', dial_strategy: 'gsm_only' });
  });

  it('setting backup_phone_number turns FMC on, which makes dial_strategy meaningful', async () => {
    const user = await createUser(t.ctx);
    const { id } = (await call('POST', `/users/${user.id}/twinnings`, user.token, { phone_number: '+352691000002' })).json().data;
    const fmc = await call('PATCH', `/users/${user.id}/twinnings/${id}`, user.token, {
      backup_phone_number: '+49 30 1234567',
      dial_strategy: 'voip_and_gsm_fallback',
    });
    expect(fmc.statusCode).toBe(200);
    expect(fmc.json().data).toMatchObject({ fmc_enabled: true, backup_phone_number: '+49301234567', dial_strategy: 'voip_and_gsm_fallback' });
    const contradiction = await call('PUT', `/users/${user.id}/twinnings/${id}`, user.token, { backup_phone_number: '+352691000003', fmc_enabled: false });
    expect(contradiction.statusCode).toBe(422);
    expect(contradiction.json().errors).toHaveProperty('fmc_enabled');
    const empty = await call('PUT', `/users/${user.id}/twinnings/${id}`, user.token, { phone_number: '' });
    expect(empty.json().data.phone_number).toBeNull();
  });

  it('keeps the provisioned phone_number, type and dial_strategy and rejects conflicting values with 422', async () => {
    const tenant = await createTenant(t.ctx);
    const user = await createUser(t.ctx, { tenant });
    const pbxKey = await createKey(t.ctx, tenant, 'pbx');
    const provisioned = await call('POST', `/users/${user.id}/twinnings`, pbxKey, {
      phone_number: '+352691999000',
      backup_phone_number: '+352691999001',
      dial_strategy: 'voip_only',
    });
    expect(provisioned.statusCode).toBe(201);
    const twinning = provisioned.json().data;
    expect(twinning).toMatchObject({ sync_source: 'provision', fmc_enabled: true, dial_strategy: 'voip_only' });

    for (const body of [{ phone_number: '+352691111111' }, { type: 'teams' }, { dial_strategy: 'gsm_only' }]) {
      const refused = await call('PATCH', `/users/${user.id}/twinnings/${twinning.id}`, user.token, { ...body, delay: 9 });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toHaveProperty(Object.keys(body)[0]);
    }
    // Same values are not a conflict, and unlocked fields still change.
    const same = await call('PUT', `/users/${user.id}/twinnings/${twinning.id}`, user.token, {
      phone_number: '691 999 000',
      type: 'mobile',
      delay: 7,
      status: 'disabled',
    });
    expect(same.statusCode).toBe(200);
    expect(same.json().data).toMatchObject({
      phone_number: '+352691999000',
      type: 'mobile',
      dial_strategy: 'voip_only',
      delay: 7,
      status: 'disabled',
      sync_source: 'provision',
    });
    const removed = await call('DELETE', `/users/${user.id}/twinnings/${twinning.id}`, user.token);
    expect(removed.statusCode).toBe(403);
  });

  it('a teams twinning has no number', async () => {
    const user = await createUser(t.ctx);
    const teams = await call('POST', `/users/${user.id}/twinnings`, user.token, { type: 'teams' });
    expect(teams.statusCode).toBe(201);
    expect(teams.json().data).toMatchObject({ type: 'teams', phone_number: null, fmc_enabled: false });
  });

  // What the contract accepts (lengths aside, it refuses only conflicts with provisioned values),
  // and the one invariant kept: fmc_enabled false with the backup number that turns FMC on.
  const updates: Array<{ name: string; start: object; body: object; status: number; result?: object; error?: string }> = [
    {
      name: 'voip_only without FMC',
      start: { phone_number: '+352691000020' },
      body: { dial_strategy: 'voip_only' },
      status: 200,
      result: { dial_strategy: 'voip_only', fmc_enabled: false },
    },
    {
      name: 'voip_and_gsm_fallback without FMC',
      start: { phone_number: '+352691000021' },
      body: { dial_strategy: 'voip_and_gsm_fallback' },
      status: 200,
      result: { dial_strategy: 'voip_and_gsm_fallback' },
    },
    {
      name: 'a dial strategy on a teams twinning',
      start: { type: 'teams' },
      body: { dial_strategy: 'voip_only' },
      status: 200,
      result: { type: 'teams', dial_strategy: 'voip_only' },
    },
    {
      name: 'a phone number on a teams twinning',
      start: { type: 'teams' },
      body: { phone_number: '+352691000022', delay: 4 },
      status: 200,
      result: { type: 'teams', phone_number: null, delay: 4 },
    },
    {
      name: 'FMC and a backup number on a teams twinning',
      start: { type: 'teams' },
      body: { fmc_enabled: true, backup_phone_number: '+352691000023' },
      status: 200,
      result: { phone_number: null, backup_phone_number: null, fmc_enabled: false },
    },
    {
      name: 'turning a mobile twinning into teams',
      start: { phone_number: '+352691000024', backup_phone_number: '+352691000025' },
      body: { type: 'teams' },
      status: 200,
      result: { type: 'teams', phone_number: null, backup_phone_number: null, fmc_enabled: false },
    },
    {
      name: 'a backup number turns FMC on',
      start: { phone_number: '+352691000026' },
      body: { backup_phone_number: '+352691000027', dial_strategy: 'voip_only' },
      status: 200,
      result: { fmc_enabled: true, dial_strategy: 'voip_only' },
    },
    {
      name: 'fmc_enabled false with a backup number',
      start: { phone_number: '+352691000028' },
      body: { backup_phone_number: '+352691000029', fmc_enabled: false },
      status: 422,
      error: 'fmc_enabled',
    },
    {
      name: 'a value that is no phone number',
      start: { phone_number: '+352691000030' },
      body: { phone_number: 'not a number' },
      status: 422,
      error: 'phone_number',
    },
    { name: 'a phone number over 24 characters', start: { type: 'teams' }, body: { phone_number: '1'.repeat(25) }, status: 422, error: 'phone_number' },
  ];
  for (const method of ['PUT', 'PATCH'] as const) {
    for (const row of updates) {
      it(`${method}: ${row.name} is ${row.status}`, async () => {
        const user = await createUser(t.ctx);
        const created = await call('POST', `/users/${user.id}/twinnings`, user.token, row.start);
        expect(created.statusCode, created.body).toBe(201);
        const response = await call(method, `/users/${user.id}/twinnings/${created.json().data.id}`, user.token, row.body);
        expect(response.statusCode, response.body).toBe(row.status);
        if (row.result) expect(response.json().data).toMatchObject(row.result);
        if (row.error) expect(Object.keys(response.json().errors)).toEqual([row.error]);
      });
    }
  }

  it('enforces allow_change_twinning_dest for the user, not for an administrator', async () => {
    const tenant = await createTenant(t.ctx);
    const user = await createUser(t.ctx, { tenant, fields: { allow_change_twinning_dest: 0 } });
    const admin = await createAdmin(t.ctx, tenant);
    const byUser = await call('POST', `/users/${user.id}/twinnings`, user.token, { phone_number: '+352691000010' });
    expect(byUser.statusCode).toBe(403);
    const byAdmin = await call('POST', `/users/${user.id}/twinnings`, admin.token, { phone_number: '+352691000010' });
    expect(byAdmin.statusCode).toBe(201);
    const id = byAdmin.json().data.id;
    expect((await call('PATCH', `/users/${user.id}/twinnings/${id}`, user.token, { phone_number: '+352691000011' })).statusCode).toBe(403);
    // Status and delay are not the destination.
    expect((await call('PATCH', `/users/${user.id}/twinnings/${id}`, user.token, { status: 'disabled', delay: 2 })).statusCode).toBe(200);
  });

  it('refuses another user (403) and another tenant (404)', async () => {
    const tenant = await createTenant(t.ctx);
    const owner = await createUser(t.ctx, { tenant });
    const colleague = await createUser(t.ctx, { tenant });
    const { id } = (await call('POST', `/users/${owner.id}/twinnings`, owner.token, { phone_number: '+352691000020' })).json().data;
    expect((await call('GET', `/users/${owner.id}/twinnings`, colleague.token)).statusCode).toBe(403);
    expect((await call('PATCH', `/users/${owner.id}/twinnings/${id}`, colleague.token, { status: 'disabled' })).statusCode).toBe(403);
    // A twinning id under the wrong user is not found.
    expect((await call('GET', `/users/${colleague.id}/twinnings/${id}`, colleague.token)).statusCode).toBe(404);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    for (const [method, url] of [
      ['GET', `/users/${owner.id}/twinnings/${id}`],
      ['PUT', `/users/${owner.id}/twinnings/${id}`],
      ['DELETE', `/users/${owner.id}/twinnings/${id}`],
    ] as const) {
      const response = await call(method, url, stranger.token, method === 'PUT' ? { status: 'disabled' } : undefined);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: ['User not found.'] });
    }
    expect((await call('DELETE', `/users/${owner.id}/twinnings/${id}`, owner.token)).statusCode).toBe(204);
    expect((await call('GET', `/users/${owner.id}/twinnings/${id}`, owner.token)).statusCode).toBe(404);
  });
});
