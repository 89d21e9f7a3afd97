import { describe, expect, it } from 'vitest';
import { bearer, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createKey, createTenant, createUser } from '../../../../test/factories.js';

describe('integration API keys', () => {
  const t = useTestApp();

  it('creates a key whose token is shown once, then lists, reveals and revokes it', async () => {
    const admin = await createAdmin(t.ctx);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/integrations/api-keys',
      headers: bearer(admin.token),
      payload: { name: 'CRM', scopes: ['call-history'] },
    });
    expect(created.statusCode).toBe(201);
    const key = created.json().data;
    expect(key).toMatchObject({ name: 'CRM', scopes: ['call-history'], revoked_at: null });
    expect(key.token).toMatch(/^pbxi_/);

    const list = await t.app.inject({ method: 'GET', url: '/api/v1/integrations/api-keys?perPage=5', headers: bearer(admin.token) });
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toHaveLength(1);
    expect(list.json().data[0]).not.toHaveProperty('token');
    expect(list.json().meta).toMatchObject({ current_page: 1, per_page: 5, total: 1, from: 1, to: 1, last_page: 1 });

    const revealed = await t.app.inject({ method: 'POST', url: `/api/v1/integrations/api-keys/${key.id}/reveal`, headers: bearer(admin.token) });
    expect(revealed.json()).toEqual({ data: { id: key.id, token: key.token } });

    // The key works for its scope until it is revoked.
    const asKey = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(key.token) });
    expect(asKey.statusCode).toBe(403);
    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/v1/integrations/api-keys/${key.id}`, headers: bearer(admin.token) });
    expect(revoked.statusCode).toBe(204);
    const afterRevoke = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(key.token) });
    expect(afterRevoke.statusCode).toBe(401);
    const revealRevoked = await t.app.inject({ method: 'POST', url: `/api/v1/integrations/api-keys/${key.id}/reveal`, headers: bearer(admin.token) });
    expect(revealRevoked.statusCode).toBe(404);
  });

  it('rejects unknown scopes and missing names with 422', async () => {
    const admin = await createAdmin(t.ctx);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/integrations/api-keys',
      headers: bearer(admin.token),
      payload: { scopes: ['everything'] },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toHaveProperty('name');
    expect(response.json().errors).toHaveProperty('scopes.0');
  });

  it('refuses a non-admin user with 403 and an API key with 403', async () => {
    const user = await createUser(t.ctx);
    const asUser = await t.app.inject({ method: 'GET', url: '/api/v1/integrations/api-keys', headers: bearer(user.token) });
    expect(asUser.statusCode).toBe(403);
    const pbxKey = await createKey(t.ctx, user.tenant, 'pbx');
    const asKey = await t.app.inject({ method: 'GET', url: '/api/v1/integrations/api-keys', headers: bearer(pbxKey) });
    expect(asKey.statusCode).toBe(403);
  });

  it("never shows or revokes another tenant's key", async () => {
    const ownerAdmin = await createAdmin(t.ctx);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/integrations/api-keys',
      headers: bearer(ownerAdmin.token),
      payload: { name: 'Theirs', scopes: ['contacts'] },
    });
    const id = created.json().data.id;
    const otherAdmin = await createAdmin(t.ctx, await createTenant(t.ctx));
    for (const [method, url] of [
      ['GET', `/api/v1/integrations/api-keys/${id}`],
      ['POST', `/api/v1/integrations/api-keys/${id}/reveal`],
      ['DELETE', `/api/v1/integrations/api-keys/${id}`],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: bearer(otherAdmin.token) });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: ['API key not found.'] });
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/integrations/api-keys', headers: bearer(otherAdmin.token) });
    expect(list.json().data).toEqual([]);
  });
});
