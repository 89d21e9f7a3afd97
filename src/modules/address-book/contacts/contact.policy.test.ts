import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../platform/auth/principal.js';
import { useTestApp } from '../../../../test/helpers.js';
import { createTenant, createUser } from '../../../../test/factories.js';
import { canBlock, canCreate, canEdit, canFavorite, canManageGroups, canSee, contactActor, type ContactActor, type ContactRecord } from './contact.policy.js';
import { contactsByNumber, insertContactRow, insertNumberRows, listContacts } from './contacts.queries.js';

const ME = 'u-me';
const OTHER = 'u-other';

/** The kinds of caller, as the routes' scope resolves them. */
const ACTORS: Record<string, ContactActor> = {
  user: { userId: ME, managesGlobal: false },
  'user managing global contacts': { userId: ME, managesGlobal: true },
  'integration key (contacts scope)': { userId: null, managesGlobal: true },
  'PBX key': { userId: null, managesGlobal: false },
};

/** How a contact may stand to its callers. */
const RECORDS: Record<string, ContactRecord> = {
  global: { private_owner_id: null },
  'private to the user': { private_owner_id: ME },
  'private to another user': { private_owner_id: OTHER },
};

/** actor -> contact -> [see, edit, favorite, block for oneself, block globally]. */
const EXPECTED: Record<string, Record<string, [boolean, boolean, boolean, boolean, boolean]>> = {
  user: {
    global: [true, false, true, true, false],
    'private to the user': [true, true, true, true, false],
    'private to another user': [false, false, false, false, false],
  },
  'user managing global contacts': {
    global: [true, true, true, true, true],
    'private to the user': [true, true, true, true, true],
    'private to another user': [false, false, false, false, false],
  },
  'integration key (contacts scope)': {
    global: [true, true, false, false, true],
    'private to the user': [false, false, false, false, false],
    'private to another user': [false, false, false, false, false],
  },
  'PBX key': {
    global: [true, false, false, false, false],
    'private to the user': [false, false, false, false, false],
    'private to another user': [false, false, false, false, false],
  },
};

/** actor -> [global, the user's own, another user's]: the owner a written contact may have. */
const CREATE: Record<string, [boolean, boolean, boolean]> = {
  user: [false, true, false],
  'user managing global contacts': [true, true, false],
  'integration key (contacts scope)': [true, false, false],
  'PBX key': [false, false, false],
};

describe('contact policy', () => {
  const cases = Object.entries(ACTORS).flatMap(([actorName, actor]) =>
    Object.entries(RECORDS).map(([recordName, record]) => ({ actorName, actor, recordName, record, expected: EXPECTED[actorName][recordName] })),
  );

  it.each(cases)('$actorName, $recordName contact', ({ actor, record, expected }) => {
    expect([
      canSee(actor, record),
      canEdit(actor, record),
      canFavorite(actor, record),
      canBlock(actor, record, 'user'),
      canBlock(actor, record, 'global'),
    ]).toEqual(expected);
  });

  it.each(Object.entries(CREATE))('%s writes a contact that is global, its own, another user’s: %j', (actorName, expected) => {
    const actor = ACTORS[actorName];
    expect([canCreate(actor, null), canCreate(actor, ME), canCreate(actor, OTHER)]).toEqual(expected);
  });

  it('contact groups are managed by the managers of global contacts', () => {
    expect(
      Object.entries(ACTORS)
        .filter(([, actor]) => canManageGroups(actor))
        .map(([name]) => name),
    ).toEqual(['user managing global contacts', 'integration key (contacts scope)']);
  });

  it('resolves the actor from the principal: a user by its right, an integration key manages, the PBX key only reads', () => {
    const user: Principal = { kind: 'user', id: 'u', userId: 'u', pbxId: 'p', role: 'user', tokenId: 't', rateLimit: null };
    expect(contactActor(user, { allow_manage_global_contacts: 1 })).toEqual({ userId: 'u', managesGlobal: true });
    expect(contactActor(user, { allow_manage_global_contacts: 0 })).toEqual({ userId: 'u', managesGlobal: false });
    expect(contactActor(user, undefined)).toEqual({ userId: 'u', managesGlobal: false });
    expect(contactActor({ kind: 'integration', id: 'k', pbxId: 'p', scopes: ['contacts'], rateLimit: null }, undefined)).toEqual({
      userId: null,
      managesGlobal: true,
    });
    expect(contactActor({ kind: 'pbx', id: 'k', pbxId: 'p', rateLimit: null }, undefined)).toEqual({ userId: null, managesGlobal: false });
  });
});

describe('contact policy: the SQL filter agrees with the check', () => {
  const t = useTestApp();

  it('for every kind of caller, the list and the caller lookup show exactly the rows canSee allows', async () => {
    const tenant = await createTenant(t.ctx);
    const me = (await createUser(t.ctx, { tenant })).id;
    const other = (await createUser(t.ctx, { tenant })).id;
    const now = t.clock.now().toISOString();
    // One contact of each kind, all with the same number, and one of another tenant that nobody here sees.
    const records = new Map<string, ContactRecord>();
    const foreign = await createTenant(t.ctx);
    for (const [pbxId, owner] of [
      [tenant.pbxId, null],
      [tenant.pbxId, me],
      [tenant.pbxId, other],
      [foreign.pbxId, null],
    ] as const) {
      const id = randomUUID();
      await insertContactRow(t.ctx.db, { id, pbx_id: pbxId, name1: `Contact ${records.size}`, private_owner_id: owner, created_at: now, updated_at: now });
      const number = { phone_number_raw: '621 000 000', phone_number: '+352621000000', label: null, type: 'work', speed_dial: null, position: 0 };
      await insertNumberRows(t.ctx.db, [{ ...number, id: randomUUID(), contact_id: id, pbx_id: pbxId, created_at: now, updated_at: now }]);
      if (pbxId === tenant.pbxId) records.set(id, { private_owner_id: owner });
    }
    const actors: ContactActor[] = Object.values(ACTORS).map((actor) => ({ ...actor, userId: actor.userId === ME ? me : actor.userId }));
    for (const actor of actors) {
      const allowed = [...records].filter(([, record]) => canSee(actor, record)).map(([id]) => id);
      const listed = await listContacts(t.ctx.db, tenant, actor, {}, [{ field: 'name1', direction: 'asc' }], { page: 1, perPage: 100, offset: 0 });
      expect(listed.rows.map((row) => row.id).sort()).toEqual(allowed.sort());
      const looked = await contactsByNumber(t.ctx.db, tenant, actor, '+352621000000');
      expect(looked.map((row) => row.id).sort()).toEqual(allowed.sort());
      expect(allowed.length).toBeGreaterThan(0);
    }
  });
});
