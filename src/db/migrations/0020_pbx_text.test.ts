import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/database.js';
import type { Database } from '../database.js';
import { systemClock } from '../../platform/clock.js';
import { insertPbx } from '../../platform/tenancy.js';
import { insertUser } from '../../modules/directory/index.js';
import { cleanPbxText, up } from './0020_pbx_text.js';

describe('migration 0020: names that reach the PBX lose their control characters', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  const run = () => up(database.db as unknown as Parameters<typeof up>[0]);
  const stamp = '2026-01-01T00:00:00.000Z';

  it('makes each run of control characters one space, trimmed', () => {
    expect(cleanPbxText('Claire\r\nSchmit')).toBe('Claire Schmit');
    expect(cleanPbxText('Reception\t\u0007desk\u2028')).toBe('Reception desk');
    expect(cleanPbxText('Caf\u00e9 \u0085Luxembourg')).toBe('Caf\u00e9  Luxembourg');
    expect(cleanPbxText('\n')).toBe('');
  });

  it('cleans users, extensions, devices, numbers, identities, groups and routing names; leaves the rest as it was', async () => {
    const pbx = await insertPbx(database.db, systemClock, { name: 'Acme' });
    const user = await insertUser(database.db, systemClock, { pbx_id: pbx.id, email: `anna.${pbx.id.slice(0, 8)}@acme.example`, first_name: 'Anna\nX' });
    await database.db.updateTable('users').set({ last_name: 'Muller\r\n', updated_at: stamp }).where('id', '=', user.id).execute();
    const clean = await insertUser(database.db, systemClock, { pbx_id: pbx.id, email: `ben.${pbx.id.slice(0, 8)}@acme.example`, first_name: 'Ben' });
    await database.db.updateTable('users').set({ updated_at: stamp }).where('id', '=', clean.id).execute();

    const base = { pbx_id: pbx.id, created_at: stamp, updated_at: stamp };
    await database.db
      .insertInto('extensions')
      .values({ ...base, id: '00000000-0000-4000-8000-000000000021', number: '201', name: 'Front\u2028desk', user_id: null, voip_id: 1, voicemail_enabled: 0 })
      .execute();
    await database.db
      .insertInto('phone_numbers')
      .values({
        ...base,
        id: '00000000-0000-4000-8000-000000000022',
        number: '+35227000021',
        label: '\r\n',
        voip_id: 1,
        destination_type: 'none',
        destination_id: null,
      })
      .execute();
    // Two groups of one user whose names become the same: the second gets a suffix (the index is unique).
    await database.db
      .insertInto('user_groups')
      .values([
        { ...base, id: '00000000-0000-4000-8000-000000000023', user_id: user.id, name: 'Sales', position: 1 },
        { ...base, id: '00000000-0000-4000-8000-000000000024', user_id: user.id, name: 'Sales\n', position: 2 },
      ])
      .execute();
    await database.db
      .insertInto('call_flows')
      .values({ ...base, id: '00000000-0000-4000-8000-000000000025', name: 'Office\thours', description: 'Line one\nline two', entry: 'start', nodes: '[]' })
      .execute();

    await run();

    const users = await database.db.selectFrom('users').select(['id', 'first_name', 'last_name', 'updated_at']).where('pbx_id', '=', pbx.id).execute();
    expect(users.find((u) => u.id === user.id)).toMatchObject({ first_name: 'Anna X', last_name: 'Muller' });
    expect(users.find((u) => u.id === user.id)!.updated_at).not.toBe(stamp);
    // An untouched row keeps its time stamp.
    expect(users.find((u) => u.id === clean.id)).toMatchObject({ first_name: 'Ben', updated_at: stamp });
    expect(await database.db.selectFrom('extensions').select('name').where('pbx_id', '=', pbx.id).executeTakeFirstOrThrow()).toEqual({ name: 'Front desk' });
    // A label left empty becomes null.
    expect(await database.db.selectFrom('phone_numbers').select('label').where('pbx_id', '=', pbx.id).executeTakeFirstOrThrow()).toEqual({ label: null });
    const groups = await database.db.selectFrom('user_groups').select(['id', 'name']).where('user_id', '=', user.id).orderBy('id').execute();
    expect(groups.map((g) => g.name)).toEqual(['Sales', 'Sales (2)']);
    // Free text that is no name in the configuration keeps its line breaks.
    expect(await database.db.selectFrom('call_flows').select(['name', 'description']).where('pbx_id', '=', pbx.id).executeTakeFirstOrThrow()).toEqual({
      name: 'Office hours',
      description: 'Line one\nline two',
    });

    // Running it again changes nothing.
    await run();
    expect((await database.db.selectFrom('user_groups').select('name').where('user_id', '=', user.id).orderBy('id').execute()).map((g) => g.name)).toEqual([
      'Sales',
      'Sales (2)',
    ]);
  });
});
