import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/database.js';
import type { Database } from '../database.js';
import { systemClock } from '../../platform/clock.js';
import { insertPbx } from '../../platform/tenancy.js';
import { insertUser } from '../../modules/directory/index.js';
import { canonicalJson, requestFingerprint } from '../../platform/idempotency/idempotency.js';
import { down, up } from './0026_idempotency.js';

describe('migration 0026: the calls domain’s Idempotency-Key store becomes the platform’s', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('carries over the live answers of POST /calls/new with the fingerprint the route now computes, and drops the old table', async () => {
    const db = database.db as unknown as Parameters<typeof up>[0];
    await down(db);
    const pbx = await insertPbx(database.db, systemClock, { name: 'Acme' });
    const user = await insertUser(database.db, systemClock, { pbx_id: pbx.id, email: `anna.${pbx.id.slice(0, 8)}@acme.example` });
    const query = { autoAnswer: true };
    const body = { destination: '+352621999000', targets: { webrtc: true } };
    // What the calls domain's own store hashed: `{query, body}`.
    const oldHash = createHash('sha256').update(canonicalJson({ query, body })).digest('hex');
    const now = Date.now();
    const at = (hours: number) => new Date(now + hours * 3600_000).toISOString();
    const row = (key: string, fields: object) => ({
      pbx_id: pbx.id,
      user_id: user.id,
      scope: 'calls.new',
      key,
      request_hash: oldHash,
      response_status: 200,
      response_body: '{"data":{"call_id":"c1"}}',
      created_at: at(-1),
      expires_at: at(23),
      ...fields,
    });
    await (db as unknown as typeof database.db)
      .insertInto('idempotency_keys' as never)
      .values([row('live', {}), row('running', { response_status: null, response_body: null }), row('expired', { expires_at: at(-1) })] as never)
      .execute();
    await up(db);

    const rows = await database.db.selectFrom('idempotency_records').selectAll().execute();
    expect(rows).toEqual([
      {
        pbx_id: pbx.id,
        principal: `user:${user.id}`,
        key: 'live',
        fingerprint: requestFingerprint('POST', '/api/v1/calls/new', { params: {}, query, body }),
        response_status: 200,
        response_body: '{"data":{"call_id":"c1"}}',
        sealed: 0,
        content_type: 'application/json; charset=utf-8',
        location: null,
        created_at: at(-1),
        expires_at: at(23),
      },
    ]);
    await expect(
      database.db
        .selectFrom('idempotency_keys' as never)
        .selectAll()
        .execute(),
    ).rejects.toThrow();
  });
});
