import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../../test/helpers.js';
import { createAdmin, createEmployee, createKey, createTenant, createUser } from '../../../../../test/factories.js';
import { fullName } from '../full-name.js';

describe('employees', () => {
  const t = useTestApp();

  const call = apiCaller(() => t);
  const names = (response: { json(): { data: Array<{ fullName: string }> } }) => response.json().data.map((e) => e.fullName);

  it('an administrator creates, lists, reads, changes, deletes and restores employees', async () => {
    const admin = await createAdmin(t.ctx);
    const path = `/${admin.pbxId}/employees`;
    const created = await call('POST', path, admin.token, { ext_id: 'A-1002', first_name: 'Luc', last_name: 'Weber' });
    expect(created.statusCode).toBe(201);
    const luc = created.json().data;
    expect(luc).toEqual({
      id: expect.any(String),
      ext_id: 'A-1002',
      first_name: 'Luc',
      last_name: 'Weber',
      fullName: 'Luc Weber',
      user_id: null,
      delete_date: null,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });
    const anna = (await call('POST', path, admin.token, { ext_id: 'A-1001', first_name: 'Anna', last_name: 'Schmit' })).json().data;
    const tom = (await call('POST', path, admin.token, { first_name: 'Tom', last_name: 'Reuter' })).json().data;
    expect(tom.ext_id).toBeNull();

    const list = await call('GET', `${path}?perPage=2`, admin.token);
    expect(list.statusCode).toBe(200);
    expect(names(list)).toEqual(['Anna Schmit', 'Luc Weber']);
    expect(list.json().meta).toMatchObject({ total: 3, per_page: 2, last_page: 2 });
    expect(names(await call('GET', `${path}?search=schmit anna`, admin.token))).toEqual(['Anna Schmit']);
    expect(names(await call('GET', `${path}?search=A-100`, admin.token))).toEqual(['Anna Schmit', 'Luc Weber']);
    expect(names(await call('GET', `${path}?search=luc reuter`, admin.token))).toEqual([]);
    // Employees without an ext_id come last either way, on both databases.
    expect(names(await call('GET', `${path}?sort=-ext_id`, admin.token))).toEqual(['Luc Weber', 'Anna Schmit', 'Tom Reuter']);
    expect(names(await call('GET', `${path}?sort=ext_id`, admin.token))).toEqual(['Anna Schmit', 'Luc Weber', 'Tom Reuter']);

    t.clock.advance(30);
    const patched = await call('PATCH', `${path}/${luc.id}`, admin.token, { first_name: 'Lucien', ext_id: null });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({
      first_name: 'Lucien',
      last_name: 'Weber',
      fullName: 'Lucien Weber',
      ext_id: null,
      updated_at: t.clock.now().toISOString(),
    });
    expect((await call('GET', `${path}/${luc.id}`, admin.token)).json().data).toEqual(patched.json().data);

    expect((await call('DELETE', `${path}/${anna.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `${path}/${anna.id}`, admin.token)).statusCode).toBe(404);
    expect(names(await call('GET', path, admin.token))).toEqual(['Lucien Weber', 'Tom Reuter']);
    const trashed = await call('GET', `${path}?filter[trashed]=only`, admin.token);
    expect(trashed.json().data).toEqual([expect.objectContaining({ id: anna.id, delete_date: t.clock.now().toISOString() })]);
    const restored = await call('POST', `${path}/${anna.id}/restore`, admin.token);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ id: anna.id, delete_date: null, fullName: 'Anna Schmit' });
    expect((await call('POST', `${path}/${anna.id}/restore`, admin.token)).statusCode).toBe(404);
  });

  it("writes every fullName and sorts the list in the PBX's name order, both ways", async () => {
    const admin = await createAdmin(t.ctx);
    const path = `/${admin.pbxId}/employees`;
    for (const [first_name, last_name] of [
      ['Anna', 'Schmit'],
      ['Marie', 'Hoffmann'],
      ['Tom', 'Reuter'],
    ]) {
      await createEmployee(t.ctx, admin.tenant, { first_name, last_name });
    }
    expect(names(await call('GET', path, admin.token))).toEqual(['Anna Schmit', 'Marie Hoffmann', 'Tom Reuter']);

    await call('PATCH', `/${admin.pbxId}/workforce-settings`, admin.token, { name_order: 'last_first' });
    expect(names(await call('GET', path, admin.token))).toEqual(['Hoffmann Marie', 'Reuter Tom', 'Schmit Anna']);
    expect(names(await call('GET', `${path}?sort=-name`, admin.token))).toEqual(['Schmit Anna', 'Reuter Tom', 'Hoffmann Marie']);
    expect(names(await call('GET', `${path}?sort=first_name`, admin.token))).toEqual(['Schmit Anna', 'Hoffmann Marie', 'Reuter Tom']);
    const created = await call('POST', path, admin.token, { first_name: 'Sophie', last_name: 'Klein' });
    expect(created.json().data.fullName).toBe('Klein Sophie');
    expect((await call('GET', `${path}/${created.json().data.id as string}`, admin.token)).json().data.fullName).toBe('Klein Sophie');

    await call('PATCH', `/${admin.pbxId}/workforce-settings`, admin.token, { name_order: 'first_last' });
    expect(names(await call('GET', path, admin.token))).toEqual(['Anna Schmit', 'Marie Hoffmann', 'Sophie Klein', 'Tom Reuter']);
    expect(fullName({ first_name: 'Anna', last_name: '' }, 'last_first')).toBe('Anna');
    expect(fullName({ first_name: ' Anna ', last_name: 'Schmit' }, 'last_first')).toBe('Schmit Anna');
  });

  it('keeps ext_id unique within the PBX, soft-deleted employees included (422)', async () => {
    const admin = await createAdmin(t.ctx);
    const path = `/${admin.pbxId}/employees`;
    const first = await createEmployee(t.ctx, admin.tenant, { ext_id: 'HR-1' });
    const second = await createEmployee(t.ctx, admin.tenant, { ext_id: 'HR-2' });
    const duplicate = await call('POST', path, admin.token, { ext_id: 'HR-1', first_name: 'Dup', last_name: 'Licate' });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json()).toEqual({ message: 'The ext id has already been taken.', errors: { ext_id: ['The ext id has already been taken.'] } });
    expect((await call('PATCH', `${path}/${second.id}`, admin.token, { ext_id: 'HR-1' })).statusCode).toBe(422);
    expect((await call('PATCH', `${path}/${first.id}`, admin.token, { ext_id: 'HR-1', last_name: 'Same' })).statusCode).toBe(200);

    await call('DELETE', `${path}/${first.id}`, admin.token);
    const held = await call('POST', path, admin.token, { ext_id: 'HR-1', first_name: 'New', last_name: 'Hire' });
    expect(held.statusCode).toBe(422);
    expect(held.json().errors.ext_id[0]).toContain(`deleted employee (${first.id})`);

    // ext_ids are per PBX, and employees without one do not collide.
    const other = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('POST', `/${other.pbxId}/employees`, other.token, { ext_id: 'HR-1', first_name: 'Else', last_name: 'Where' })).statusCode).toBe(201);
    expect((await call('POST', path, admin.token, { ext_id: null, first_name: 'No', last_name: 'Id' })).statusCode).toBe(201);
    expect((await call('POST', path, admin.token, { first_name: 'No', last_name: 'Id' })).statusCode).toBe(201);
  });

  it('links a user: shown on the employee, the user and its /me; moved, unlinked with null, and dropped when the employee is deleted', async () => {
    const admin = await createAdmin(t.ctx);
    const path = `/${admin.pbxId}/employees`;
    const luc = await createUser(t.ctx, { tenant: admin.tenant });
    const marie = await createUser(t.ctx, { tenant: admin.tenant });
    const me = async (token: string) => (await call('GET', '/me', token)).json().data.employee_id as string | null;
    const userLink = async (userId: string) => (await call('GET', `/users/${userId}`, admin.token)).json().data.employee_id as string | null;

    expect(await me(luc.token)).toBeNull(); // now cached: the writes below must drop it
    const created = await call('POST', path, admin.token, { ext_id: 'A-1002', first_name: 'Luc', last_name: 'Weber', user_id: luc.id });
    expect(created.statusCode).toBe(201);
    const employee = created.json().data;
    expect(employee.user_id).toBe(luc.id);
    expect(await userLink(luc.id)).toBe(employee.id);
    expect(await me(luc.token)).toBe(employee.id);
    expect((await call('GET', `${path}?filter[user_id]=${luc.id}`, admin.token)).json().data.map((e: { id: string }) => e.id)).toEqual([employee.id]);
    const other = await createEmployee(t.ctx, admin.tenant, { first_name: 'Tom', last_name: 'Reuter' });
    expect((await call('GET', `${path}?filter[has_user]=1`, admin.token)).json().data.map((e: { id: string }) => e.id)).toEqual([employee.id]);
    expect((await call('GET', `${path}?filter[has_user]=false`, admin.token)).json().data.map((e: { id: string }) => e.id)).toEqual([other.id]);

    // Moving the link to another user frees the first.
    const moved = await call('PATCH', `${path}/${employee.id}`, admin.token, { user_id: marie.id });
    expect(moved.json().data.user_id).toBe(marie.id);
    expect(await userLink(luc.id)).toBeNull();
    expect(await me(luc.token)).toBeNull();
    expect(await me(marie.token)).toBe(employee.id);
    // The same user again changes nothing; null unlinks.
    expect((await call('PATCH', `${path}/${employee.id}`, admin.token, { user_id: marie.id })).json().data.user_id).toBe(marie.id);
    expect((await call('PATCH', `${path}/${employee.id}`, admin.token, { user_id: null })).json().data.user_id).toBeNull();
    expect(await me(marie.token)).toBeNull();

    // Deleting the employee unlinks its user; restoring it brings it back without one.
    await call('PATCH', `${path}/${employee.id}`, admin.token, { user_id: luc.id });
    expect(await me(luc.token)).toBe(employee.id);
    expect((await call('DELETE', `${path}/${employee.id}`, admin.token)).statusCode).toBe(204);
    expect(await me(luc.token)).toBeNull();
    expect(await userLink(luc.id)).toBeNull();
    expect((await call('GET', `${path}?filter[trashed]=only`, admin.token)).json().data[0]).toMatchObject({ id: employee.id, user_id: null });
    expect((await call('POST', `${path}/${employee.id}/restore`, admin.token)).json().data.user_id).toBeNull();
    // The user is free for another employee.
    expect((await call('PATCH', `${path}/${other.id}`, admin.token, { user_id: luc.id })).json().data.user_id).toBe(luc.id);
  });

  it('refuses a user of another tenant, a deleted user and a user linked to another employee (422 naming it); a disabled user may be linked', async () => {
    const admin = await createAdmin(t.ctx);
    const path = `/${admin.pbxId}/employees`;
    const foreigner = await createUser(t.ctx);
    const gone = await createUser(t.ctx, { tenant: admin.tenant });
    await call('DELETE', `/users/${gone.id}`, admin.token);
    const disabled = await createUser(t.ctx, { tenant: admin.tenant, fields: { status: 'disabled' } });
    const taken = await createUser(t.ctx, { tenant: admin.tenant });
    const holder = await createEmployee(t.ctx, admin.tenant, { ext_id: 'A-1001', first_name: 'Anna', last_name: 'Schmit', user_id: taken.id });
    const employee = await createEmployee(t.ctx, admin.tenant, { first_name: 'Luc', last_name: 'Weber' });

    for (const userId of [foreigner.id, gone.id, '00000000-0000-4000-8000-000000000000']) {
      const refused = await call('POST', path, admin.token, { first_name: 'X', last_name: 'Y', user_id: userId });
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toEqual({ message: 'The selected user is invalid.', errors: { user_id: ['The selected user is invalid.'] } });
      expect((await call('PATCH', `${path}/${employee.id}`, admin.token, { user_id: userId })).statusCode).toBe(422);
    }
    const linked = await call('PATCH', `${path}/${employee.id}`, admin.token, { user_id: taken.id });
    expect(linked.statusCode).toBe(422);
    const message = linked.json().errors.user_id[0] as string;
    expect(message).toContain('Anna Schmit');
    expect(message).toContain(holder.id);
    expect(message).toContain('A-1001');
    expect((await call('POST', path, admin.token, { first_name: 'X', last_name: 'Y', user_id: taken.id })).json().errors.user_id[0]).toBe(message);
    expect((await call('GET', `${path}/${employee.id}`, admin.token)).json().data.user_id).toBeNull();
    expect((await call('GET', `${path}/${holder.id}`, admin.token)).json().data.user_id).toBe(taken.id);

    expect((await call('PATCH', `${path}/${employee.id}`, admin.token, { user_id: disabled.id })).json().data.user_id).toBe(disabled.id);
    // Nothing was written by the refused requests.
    expect((await call('GET', `${path}?search=X Y`, admin.token)).json().data).toEqual([]);
  });

  it('a deleted user is unlinked: its employee shows no user and may be linked to another', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const next = await createUser(t.ctx, { tenant: admin.tenant });
    const employee = await createEmployee(t.ctx, admin.tenant, { user_id: user.id });
    expect((await call('DELETE', `/users/${user.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `/${admin.pbxId}/employees/${employee.id}`, admin.token)).json().data.user_id).toBeNull();
    const restored = await call('POST', `/users/${user.id}/restore`, admin.token);
    expect(restored.json().data.employee_id).toBeNull();
    expect((await call('PATCH', `/${admin.pbxId}/employees/${employee.id}`, admin.token, { user_id: next.id })).json().data.user_id).toBe(next.id);
  });

  it('/me never points at a soft-deleted employee, even one deleted out of sight of the API', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const employee = await createEmployee(t.ctx, admin.tenant, { user_id: user.id });
    await t.ctx.db.updateTable('employees').set({ deleted_at: t.clock.now().toISOString() }).where('id', '=', employee.id).execute();
    expect((await call('GET', '/me', user.token)).json().data.employee_id).toBeNull();
    await t.ctx.db.updateTable('employees').set({ deleted_at: null }).where('id', '=', employee.id).execute();
    t.clock.advance(60); // past the profile cache's lifetime
    expect((await call('GET', '/me', user.token)).json().data.employee_id).toBe(employee.id);
  });

  it('the users API shows employee_id but refuses to change it (422 naming the employee route)', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const employee = await createEmployee(t.ctx, admin.tenant, { user_id: user.id });
    const other = await createEmployee(t.ctx, admin.tenant);

    expect((await call('GET', `/users/${user.id}`, admin.token)).json().data.employee_id).toBe(employee.id);
    for (const employeeId of [other.id, null]) {
      const refused = await call('PATCH', `/users/${user.id}`, admin.token, { employee_id: employeeId, first_name: 'Renamed' });
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toEqual({
        message: expect.any(String),
        errors: { employee_id: [expect.stringContaining('PATCH /{pbx_id}/employees/{employee}')] },
      });
    }
    const unchanged = await call('PATCH', `/users/${user.id}`, admin.token, { employee_id: employee.id, first_name: 'Renamed' });
    expect(unchanged.statusCode).toBe(200);
    expect(unchanged.json().data).toMatchObject({ first_name: 'Renamed', employee_id: employee.id });

    const create = (employee_id: string | null) =>
      call('POST', '/users', admin.token, { email: `new-${Math.random().toString(36).slice(2)}@example.test`, first_name: 'New', employee_id });
    expect((await create(other.id)).json().errors).toHaveProperty('employee_id');
    const plain = await create(null);
    expect(plain.statusCode).toBe(201);
    expect(plain.json().data.employee_id).toBeNull();
  });

  it('is for administrators and the PBX API key only: a plain user is 403, no token 401, bad input 422', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const pbxKey = await createKey(t.ctx, admin.tenant, 'pbx');
    const path = `/${admin.pbxId}/employees`;
    const employee = await createEmployee(t.ctx, admin.tenant, { user_id: user.id });

    for (const [method, url, body] of [
      ['GET', path, undefined],
      ['GET', `${path}/${employee.id}`, undefined],
      ['POST', path, { first_name: 'Me', last_name: 'Too' }],
      ['PATCH', `${path}/${employee.id}`, { user_id: null }],
      ['DELETE', `${path}/${employee.id}`, undefined],
      ['POST', `${path}/${employee.id}/restore`, undefined],
    ] as const) {
      const refused = await call(method, url, user.token, body);
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(refused.json()).toEqual({ message: expect.any(String) });
    }
    const byKey = await call('POST', path, pbxKey, { first_name: 'Keyed', last_name: 'In', ext_id: 'K-1' });
    expect(byKey.statusCode).toBe(201);
    expect((await call('GET', `${path}?search=K-1`, pbxKey)).json().data.map((e: { id: string }) => e.id)).toEqual([byKey.json().data.id]);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/v1${path}` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: expect.any(String) });

    const cases: Array<[string, object | undefined, string]> = [
      [path, { last_name: 'Only' }, 'first_name'],
      [path, { first_name: 'Only' }, 'last_name'],
      [path, { first_name: 'A', last_name: 'B', ext_id: '' }, 'ext_id'],
      [path, { first_name: 'A', last_name: 'B', ext_id: 'x'.repeat(65) }, 'ext_id'],
      [path, { first_name: 'A', last_name: 'B', user_id: 'luc' }, 'user_id'],
      [path, { first_name: 'A', last_name: 'B', fullName: 'A B' }, 'fullName'],
      [`${path}/${employee.id}`, { first_name: null }, 'first_name'],
    ];
    for (const [url, payload, field] of cases) {
      const refused = await call(url === path ? 'POST' : 'PATCH', url, admin.token, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(422);
      expect(refused.json(), JSON.stringify(payload)).toEqual({ message: expect.any(String), errors: { [field]: [expect.any(String)] } });
    }
    for (const [query, field] of [
      ['filter[has_user]=maybe', 'filter[has_user]'],
      ['filter[user_id]=luc', 'filter[user_id]'],
      ['perPage=101', 'perPage'],
      ['sort=email', 'sort'],
    ]) {
      const refused = await call('GET', `${path}?${query}`, admin.token);
      expect(refused.statusCode, query).toBe(422);
      expect(Object.keys(refused.json().errors), query).toEqual([field]);
    }
  });

  it("another PBX in the path is 403; another tenant's employee under the caller's own PBX is 404", async () => {
    const admin = await createAdmin(t.ctx);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    const theirs = await createEmployee(t.ctx, stranger.tenant);
    for (const [method, url, body] of [
      ['GET', `/${stranger.pbxId}/employees`, undefined],
      ['GET', `/${stranger.pbxId}/employees/${theirs.id}`, undefined],
      ['POST', `/${stranger.pbxId}/employees`, { first_name: 'In', last_name: 'Truder' }],
      ['PATCH', `/${stranger.pbxId}/employees/${theirs.id}`, { user_id: admin.id }],
      ['DELETE', `/${stranger.pbxId}/employees/${theirs.id}`, undefined],
    ] as const) {
      const refused = await call(method, url, admin.token, body);
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(refused.json()).toEqual({ message: 'You have no access to this PBX.' });
    }
    for (const [method, url, body] of [
      ['GET', `/${admin.pbxId}/employees/${theirs.id}`, undefined],
      ['PATCH', `/${admin.pbxId}/employees/${theirs.id}`, { user_id: admin.id }],
      ['DELETE', `/${admin.pbxId}/employees/${theirs.id}`, undefined],
      ['POST', `/${admin.pbxId}/employees/${theirs.id}/restore`, undefined],
    ] as const) {
      const missing = await call(method, url, admin.token, body);
      expect(missing.statusCode, `${method} ${url}`).toBe(404);
      expect(missing.json()).toEqual({ message: ['Employee not found.'] });
    }
    const untouched = await call('GET', `/${stranger.pbxId}/employees/${theirs.id}`, stranger.token);
    expect(untouched.json().data).toMatchObject({ user_id: null, delete_date: null });
    expect((await call('GET', `/${admin.pbxId}/employees`, admin.token)).json().data).toEqual([]);
  });
});
