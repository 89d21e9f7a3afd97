import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/database.js';
import type { Database } from '../database.js';
import { systemClock } from '../../platform/clock.js';
import { insertPbx } from '../../platform/tenancy.js';
import { insertUser } from '../../modules/directory/index.js';
import { up } from './0009_internal_key_tenants.js';

describe('migration 0009: internal keys act for one PBX', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  /** An internal key as every one was stored before: without a PBX. */
  const unboundKey = async (name: string) => {
    const id = randomUUID();
    const now = new Date().toISOString();
    await database.db
      .insertInto('api_keys')
      .values({
        id,
        pbx_id: null,
        kind: 'internal',
        name,
        token_hash: randomUUID(),
        token_hint: 'pbxn_…',
        token_sealed: null,
        scopes: '[]',
        created_by_user_id: null,
        expires_at: null,
        revoked_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  };
  const key = (id: string) => database.db.selectFrom('api_keys').select(['pbx_id', 'name']).where('id', '=', id).executeTakeFirstOrThrow();

  it("binds the demo seed's keys to their tenants and marks the operator's own keys operator-wide", async () => {
    const acme = await insertPbx(database.db, systemClock, { name: 'Acme' });
    const globex = await insertPbx(database.db, systemClock, { name: 'Globex' });
    await insertUser(database.db, systemClock, { pbx_id: acme.id, email: `anna.${randomUUID().slice(0, 8)}@acme.example` });
    await insertUser(database.db, systemClock, { pbx_id: globex.id, email: `greta.${randomUUID().slice(0, 8)}@globex.example` });
    await database.db.insertInto('settings').values({ key: 'demo_seed', value: 'sealed', updated_at: new Date().toISOString() }).execute();
    const acmeKey = await unboundKey('Internal services (acme)');
    const globexKey = await unboundKey('Internal services (globex)');
    const operators = await unboundKey('WebRTC gateway');
    const noSuchTenant = await unboundKey('Internal services (initech)');

    await up(database.db as unknown as Parameters<typeof up>[0]);
    expect(await key(acmeKey)).toEqual({ pbx_id: acme.id, name: 'Internal services (acme)' });
    expect(await key(globexKey)).toEqual({ pbx_id: globex.id, name: 'Internal services (globex)' });
    expect(await key(operators)).toEqual({ pbx_id: null, name: '[operator-wide] WebRTC gateway' });
    expect(await key(noSuchTenant)).toEqual({ pbx_id: null, name: '[operator-wide] Internal services (initech)' });

    // Running it again changes nothing.
    await up(database.db as unknown as Parameters<typeof up>[0]);
    expect(await key(operators)).toEqual({ pbx_id: null, name: '[operator-wide] WebRTC gateway' });
  });
});
