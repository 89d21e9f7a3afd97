import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, type TestUser } from '../../../../test/factories.js';

describe('webhook delivery log: sorting', () => {
  let admin: TestUser;
  const ids: Record<string, string> = {};
  const t = useTestApp({ config: { jobWorkerEnabled: false } });
  beforeAll(async () => {
    admin = await createAdmin(t.ctx);
    const rows = [
      {
        name: 'old',
        event: 'contact_import.created',
        status: 'delivered',
        attempts: 1,
        created_at: '2026-01-01T10:00:00.000Z',
        delivered_at: '2026-01-01T10:00:01.000Z',
      },
      { name: 'new', event: 'contact_import.completed', status: 'failed', attempts: 5, created_at: '2026-01-03T10:00:00.000Z', delivered_at: null },
      { name: 'mid', event: 'contact_import.processing', status: 'pending', attempts: 2, created_at: '2026-01-02T10:00:00.000Z', delivered_at: null },
    ] as const;
    for (const row of rows) {
      ids[row.name] = `msg_${randomBytes(16).toString('hex')}`;
      await t.ctx.db
        .insertInto('webhook_deliveries')
        .values({
          id: ids[row.name],
          pbx_id: admin.tenant.pbxId,
          user_id: admin.id,
          event: row.event,
          subject_type: 'contact_import',
          subject_id: randomUUID(),
          url: 'https://hooks.example.com/in',
          // Payloads that sort the other way round from created_at, so a sort by payload would show.
          payload: JSON.stringify({ name: { old: 'c', new: 'a', mid: 'b' }[row.name] }),
          status: row.status,
          attempts: row.attempts,
          response_status: null,
          last_error: null,
          created_at: row.created_at,
          updated_at: row.created_at,
          delivered_at: row.delivered_at,
        })
        .execute();
    }
  });
  const call = apiCaller(() => t);
  const order = async (query: string) => {
    const response = await call('GET', `/webhooks/deliveries${query}`, admin.token);
    expect(response.statusCode, query).toBe(200);
    return (response.json().data as Array<{ id: string }>).map((delivery) => Object.keys(ids).find((name) => ids[name] === delivery.id));
  };

  it('sorts by its declared fields only, newest first by default', async () => {
    expect(await order('')).toEqual(['new', 'mid', 'old']);
    expect(await order('?sort=created_at')).toEqual(['old', 'mid', 'new']);
    expect(await order('?sort=-attempts')).toEqual(['new', 'mid', 'old']);
    expect(await order('?sort=status,-created_at')).toEqual(['old', 'new', 'mid']);
    expect(await order('?sort=event')).toEqual(['new', 'old', 'mid']);
    // Undelivered ones (null) last either way.
    expect((await order('?sort=-delivered_at'))[0]).toBe('old');
    expect((await order('?sort=delivered_at'))[0]).toBe('old');
  });

  it('refuses any other sort with 422 naming the allowed fields (no 500, no undeclared column)', async () => {
    const allowed =
      'The selected sort is invalid. Allowed: created_at, -created_at, updated_at, -updated_at, delivered_at, -delivered_at, event, -event, status, -status, attempts, -attempts.';
    for (const sort of ['nope', '-payload', 'payload', 'url', 'created_at,nope', 'id']) {
      const response = await call('GET', `/webhooks/deliveries?sort=${encodeURIComponent(sort)}`, admin.token);
      expect(response.statusCode, sort).toBe(422);
      expect(response.json(), sort).toEqual({ message: allowed, errors: { sort: [allowed] } });
    }
  });

  it('declares its sort fields in the OpenAPI document', async () => {
    const document = (await t.app.inject('/api/v1/openapi.json')).json();
    const sort = document.paths['/webhooks/deliveries'].get.parameters.find((parameter: { name: string }) => parameter.name === 'sort');
    expect(sort.description).toContain('Allowed: created_at, updated_at, delivered_at, event, status, attempts.');
  });
});
