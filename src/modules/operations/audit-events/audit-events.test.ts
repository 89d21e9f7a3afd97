import { describe, expect, it } from 'vitest';
import { bearer, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createKey, createUser, type TestUser } from '../../../../test/factories.js';
import { recordAudit } from '../../../platform/audit/audit.js';

describe('GET /audit-events', () => {
  const t = useTestApp({ config: { jobWorkerEnabled: false } });

  const list = (token: string, query = '') => t.app.inject({ method: 'GET', url: `/api/v1/audit-events${query}`, headers: bearer(token) });

  /** An entry recorded the way a feature records one, at the test clock's time. */
  const record = (actor: TestUser, action: string) =>
    recordAudit(t.ctx.db, t.clock, {
      tenant: { pbxId: actor.pbxId },
      principal: { kind: 'user', id: `token-of-${actor.id}`, userId: actor.id, pbxId: actor.pbxId, role: 'admin', tokenId: 'x', rateLimit: null },
      action,
      subject: { type: 'example', id: null },
      details: { changed: 'host' },
    });

  it('lists the rotation of the signing secret with who, what and when', async () => {
    const admin = await createAdmin(t.ctx);
    const rotated = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/signing-secret/rotate',
      headers: bearer(admin.token),
      payload: { overlap_seconds: 3600 },
    });
    expect(rotated.statusCode).toBe(200);
    const response = await list(admin.token);
    expect(response.statusCode).toBe(200);
    const token = await t.ctx.db.selectFrom('access_tokens').select('id').where('user_id', '=', admin.id).executeTakeFirstOrThrow();
    expect(response.json().data).toEqual([
      {
        id: expect.any(String),
        action: 'webhook_signing_secret.rotated',
        subject_type: 'webhook_signing_secret',
        subject_id: admin.pbxId,
        principal_kind: 'user',
        principal_id: token.id,
        user_id: admin.id,
        request_id: rotated.headers['x-request-id'],
        details: { overlap_seconds: 3600, previous_secret_expires_at: rotated.json().data.previous_secret_expires_at },
        created_at: t.clock.now().toISOString(),
      },
    ]);
    expect(response.json().meta).toMatchObject({ total: 1, current_page: 1 });
    expect(response.body).not.toContain(rotated.json().data.secret);
  });

  it('filters by action, user and date range, pages, and sorts', async () => {
    const admin = await createAdmin(t.ctx);
    const colleague = await createAdmin(t.ctx, admin.tenant);
    // A day apart each, the last one now (the tokens expire in an hour).
    t.clock.advance(-3 * 24 * 3600);
    const start = t.clock.now();
    const day = (offset: number) => new Date(start.getTime() + offset * 24 * 3600 * 1000);
    const ids: string[] = [];
    for (const [actor, action] of [
      [admin, 'example.created'],
      [colleague, 'example.updated'],
      [admin, 'example.updated'],
      [admin, 'example.deleted'],
    ] as const) {
      if (ids.length) t.clock.advance(24 * 3600);
      ids.push(await record(actor, action));
    }
    const idsOf = async (query: string) => {
      const response = await list(admin.token, query);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().data as Array<{ id: string }>).map((event) => event.id);
    };
    expect(await idsOf('')).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    expect(await idsOf('?filter[action]=example.updated')).toEqual([ids[2], ids[1]]);
    expect(await idsOf(`?filter[user_id]=${colleague.id}`)).toEqual([ids[1]]);
    const date = (d: Date) => d.toISOString().slice(0, 10);
    expect(await idsOf(`?filter[from]=${date(day(1))}&filter[to]=${date(day(2))}`)).toEqual([ids[2], ids[1]]);
    expect(await idsOf(`?filter[from]=${day(2).toISOString()}`)).toEqual([ids[3], ids[2]]);
    expect(await idsOf(`?filter[to]=${day(1).toISOString()}`)).toEqual([ids[1], ids[0]]);
    expect(await idsOf('?sort=created_at&perPage=2&page=2')).toEqual([ids[2], ids[3]]);
    expect(await idsOf('?sort=action,-created_at&perPage=1')).toEqual([ids[0]]);
  });

  it('is for the PBX administrators only, and each PBX reads its own trail', async () => {
    const admin = await createAdmin(t.ctx);
    await record(admin, 'example.created');
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    expect((await list(user.token)).statusCode).toBe(403);
    expect((await list(await createKey(t.ctx, admin.tenant, 'pbx'))).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/audit-events' })).statusCode).toBe(401);
    const stranger = await createAdmin(t.ctx);
    const theirs = await list(stranger.token);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().data).toEqual([]);
    expect((await list(stranger.token, `?filter[user_id]=${admin.id}`)).json().data).toEqual([]);
  });

  it('refuses bad parameters with 422 naming the parameter', async () => {
    const admin = await createAdmin(t.ctx);
    for (const [query, field] of [
      ['?filter[from]=yesterday', 'filter[from]'],
      ['?filter[from]=2026-02-31', 'filter[from]'],
      ['?filter[to]=2026-13-01T00:00:00Z', 'filter[to]'],
      ['?filter[from]=2026-02-01&filter[to]=2026-01-31', 'filter[to]'],
      ['?filter[user_id]=someone', 'filter[user_id]'],
      ['?filter[action]=DROP%20TABLE', 'filter[action]'],
      ['?sort=secret', 'sort'],
      ['?perPage=0', 'perPage'],
      ['?per_page=10', 'per_page'],
    ] as const) {
      const response = await list(admin.token, query);
      expect(response.statusCode, query).toBe(422);
      expect(response.json(), query).toEqual({ message: expect.any(String), errors: { [field]: [expect.any(String)] } });
    }
    // The same day as both bounds is a valid range.
    expect((await list(admin.token, '?filter[from]=2026-01-31&filter[to]=2026-01-31')).statusCode).toBe(200);
  });
});
