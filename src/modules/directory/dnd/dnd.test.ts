import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createCallerIdentity, createTenant, createUser } from '../../../../test/factories.js';

describe('DND rules', () => {
  const t = useTestApp();

  const call = apiCaller(() => t);

  it('bulk creates then updates rules by target and answers {data: [{id, status}]}', async () => {
    const user = await createUser(t.ctx);
    const { identity } = await createCallerIdentity(t.ctx, user.tenant);
    const first = await call('POST', `/users/${user.id}/dnds/bulk`, user.token, {
      dnds: [
        { type: 'internal', caller_identity_id: null, status: true },
        { type: 'external', caller_identity_id: identity.id, status: false },
      ],
    });
    expect(first.statusCode).toBe(200);
    const ids = first.json().data;
    expect(ids).toEqual([
      { id: expect.any(String), status: true },
      { id: expect.any(String), status: false },
    ]);
    const again = await call('POST', `/users/${user.id}/dnds/bulk`, user.token, {
      dnds: [{ type: 'external', caller_identity_id: identity.id, status: true }],
    });
    expect(again.json().data).toEqual([{ id: ids[1].id, status: true }]);
    // Both rules were created in one request (same timestamp), so compare without order.
    const list = await call('GET', `/users/${user.id}/dnds`, user.token);
    expect(list.json().data).toHaveLength(2);
    expect(list.json().data).toEqual(
      expect.arrayContaining([
        { id: ids[0].id, user_id: user.id, type: 'internal', caller_identity_id: null, extension_id: null, status: true },
        { id: ids[1].id, user_id: user.id, type: 'external', caller_identity_id: identity.voip_id, extension_id: null, status: true },
      ]),
    );
  });

  it('bulk validation: external needs a caller identity the user may present, keyed by item', async () => {
    const tenant = await createTenant(t.ctx);
    const user = await createUser(t.ctx, { tenant });
    const colleague = await createUser(t.ctx, { tenant });
    const { identity: theirs } = await createCallerIdentity(t.ctx, tenant, { user_id: colleague.id });
    const refused = await call('POST', `/users/${user.id}/dnds/bulk`, user.token, {
      dnds: [
        { type: 'external', caller_identity_id: null, status: true },
        { type: 'external', caller_identity_id: theirs.id, status: true },
        { type: 'other', status: 1 },
      ],
    });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors)).toEqual(expect.arrayContaining(['dnds.2.type', 'dnds.2.status']));
    const missing = await call('POST', `/users/${user.id}/dnds/bulk`, user.token, { dnds: [{ type: 'external', status: true }] });
    expect(missing.json().errors).toEqual({ 'dnds.0.caller_identity_id': ['The caller identity id field is required when type is external.'] });
    const semantic = await call('POST', `/users/${user.id}/dnds/bulk`, user.token, {
      dnds: [
        { type: 'external', caller_identity_id: null, status: true },
        { type: 'external', caller_identity_id: theirs.id, status: true },
      ],
    });
    expect(semantic.statusCode).toBe(422);
    expect(Object.keys(semantic.json().errors).sort()).toEqual(['dnds.0.caller_identity_id', 'dnds.1.caller_identity_id']);
    expect((await call('GET', `/users/${user.id}/dnds`, user.token)).json().data).toEqual([]);
  });

  it('bulk: an internal rule needs no caller_identity_id at all (the contract requires it for external rules only)', async () => {
    const user = await createUser(t.ctx);
    const response = await call('POST', `/users/${user.id}/dnds/bulk`, user.token, { dnds: [{ type: 'internal', status: true }] });
    expect(response.statusCode, response.body).toBe(200);
    const [rule] = (await call('GET', `/users/${user.id}/dnds`, user.token)).json().data;
    expect(rule).toMatchObject({ id: response.json().data[0].id, type: 'internal', caller_identity_id: null, status: true });
  });

  it('PUT replaces the rule: omitted fields reset to their defaults', async () => {
    const user = await createUser(t.ctx);
    const { identity } = await createCallerIdentity(t.ctx, user.tenant);
    const created = await call('POST', `/users/${user.id}/dnds`, user.token, { type: 'external', caller_identity_id: identity.id, status: false });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    const replaced = await call('PUT', `/users/${user.id}/dnds/${id}`, user.token, { status: true });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().data).toEqual({ id, user_id: user.id, type: 'internal', caller_identity_id: null, extension_id: null, status: true });
    const missing = await call('PUT', `/users/${user.id}/dnds/${id}`, user.token, { type: 'internal' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toHaveProperty('status');
    expect((await call('PUT', `/users/${user.id}/dnds/${crypto.randomUUID()}`, user.token, { status: true })).statusCode).toBe(404);
    expect((await call('DELETE', `/users/${user.id}/dnds/${id}`, user.token)).statusCode).toBe(204);
  });

  it('enforces allow_dnd (403) for the user but not for an administrator', async () => {
    const tenant = await createTenant(t.ctx);
    const user = await createUser(t.ctx, { tenant, fields: { allow_dnd: 0 } });
    const admin = await createAdmin(t.ctx, tenant);
    const body = { dnds: [{ type: 'internal', caller_identity_id: null, status: true }] };
    expect((await call('POST', `/users/${user.id}/dnds/bulk`, user.token, body)).statusCode).toBe(403);
    expect((await call('POST', `/users/${user.id}/dnds/bulk`, admin.token, body)).statusCode).toBe(200);
    expect((await call('GET', `/users/${user.id}/dnds`, user.token)).statusCode).toBe(200);
  });

  it("GET one rule: the list's item as {data}, without allow_dnd; unknown or another user's rule 404, a colleague 403, another tenant 404", async () => {
    const tenant = await createTenant(t.ctx);
    const owner = await createUser(t.ctx, { tenant, fields: { allow_dnd: 0 } });
    const colleague = await createUser(t.ctx, { tenant });
    const admin = await createAdmin(t.ctx, tenant);
    const { identity } = await createCallerIdentity(t.ctx, tenant);
    const created = await call('POST', `/users/${owner.id}/dnds`, admin.token, { type: 'external', caller_identity_id: identity.id, status: true });
    const id = created.json().data.id;
    const read = await call('GET', `/users/${owner.id}/dnds/${id}`, owner.token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ data: { id, user_id: owner.id, type: 'external', caller_identity_id: identity.voip_id, extension_id: null, status: true } });
    expect(read.json().data).toEqual((await call('GET', `/users/${owner.id}/dnds`, owner.token)).json().data[0]);
    expect((await call('GET', `/users/${owner.id}/dnds/${id}`, admin.token)).statusCode).toBe(200);
    expect((await call('GET', `/users/${owner.id}/dnds/${crypto.randomUUID()}`, owner.token)).statusCode).toBe(404);
    // The rule exists, but under its owner's path only.
    expect((await call('GET', `/users/${colleague.id}/dnds/${id}`, colleague.token)).statusCode).toBe(404);
    expect((await call('GET', `/users/${owner.id}/dnds/${id}`, colleague.token)).statusCode).toBe(403);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', `/users/${owner.id}/dnds/${id}`, stranger.token)).statusCode).toBe(404);
  });

  it('refuses another user (403) and another tenant (404)', async () => {
    const tenant = await createTenant(t.ctx);
    const owner = await createUser(t.ctx, { tenant });
    const colleague = await createUser(t.ctx, { tenant });
    const id = (await call('POST', `/users/${owner.id}/dnds`, owner.token, { type: 'internal', status: true })).json().data.id;
    expect((await call('PUT', `/users/${owner.id}/dnds/${id}`, colleague.token, { status: false })).statusCode).toBe(403);
    expect(
      (await call('POST', `/users/${owner.id}/dnds/bulk`, colleague.token, { dnds: [{ type: 'internal', caller_identity_id: null, status: false }] }))
        .statusCode,
    ).toBe(403);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('PUT', `/users/${owner.id}/dnds/${id}`, stranger.token, { status: false })).statusCode).toBe(404);
    expect((await call('GET', `/users/${owner.id}/dnds`, stranger.token)).statusCode).toBe(404);
    expect((await call('GET', `/users/${owner.id}/dnds`, owner.token)).json().data[0].status).toBe(true);
  });
});
