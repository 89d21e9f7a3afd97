import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/principal.js';
import { mayReceive, type Audience } from './audience.js';
import { defineEventKind } from './event-kinds.js';

const PBX = 'pbx-a';
const OTHER = 'pbx-b';

/** Every kind of principal, and the ways one can stand to an event of tenant PBX. */
const principals: Record<string, Principal> = {
  admin: { kind: 'user', id: 't1', userId: 'u-admin', pbxId: PBX, role: 'admin', tokenId: 't1', rateLimit: null },
  named: { kind: 'user', id: 't2', userId: 'u-named', pbxId: PBX, role: 'user', tokenId: 't2', rateLimit: null },
  user: { kind: 'user', id: 't3', userId: 'u-other', pbxId: PBX, role: 'user', tokenId: 't3', rateLimit: null },
  pbxKey: { kind: 'pbx', id: 'k1', pbxId: PBX, rateLimit: null },
  scoped: { kind: 'integration', id: 'k2', pbxId: PBX, scopes: ['contacts', 'call-history'], rateLimit: null },
  unscoped: { kind: 'integration', id: 'k3', pbxId: PBX, scopes: ['contacts'], rateLimit: null },
  pbxServer: { kind: 'pbx_server', id: 'k4', pbxId: PBX, rateLimit: null },
  internal: { kind: 'internal', id: 'k5', pbxId: PBX, rateLimit: null },
  operator: { kind: 'internal', id: 'k6', pbxId: null, rateLimit: null },
  otherAdmin: { kind: 'user', id: 't4', userId: 'u-admin', pbxId: OTHER, role: 'admin', tokenId: 't4', rateLimit: null },
  otherPbxKey: { kind: 'pbx', id: 'k7', pbxId: OTHER, rateLimit: null },
  otherScoped: { kind: 'integration', id: 'k8', pbxId: OTHER, scopes: ['call-history'], rateLimit: null },
};

const audiences: Record<string, Audience> = {
  tenant: { scope: 'tenant' },
  admins: { scope: 'admins' },
  users: { scope: 'users', userIds: ['u-named', 'u-admin'] },
  owners: { scope: 'owners', userIds: ['u-named'] },
};

const data = Type.Object({});
/** A call-like kind: the PBX key and call-history integrations read its subject. */
const keysRead = defineEventKind({
  kind: 'test_audience.keys_read',
  subject: 'thing',
  description: 'Tests.',
  data,
  pbxKey: true,
  integrationScope: 'call-history',
});
/** A routing-like kind: the PBX server reads its subject, other keys do not. */
const serverReads = defineEventKind({ kind: 'test_audience.server_reads', subject: 'thing', description: 'Tests.', data, pbxKey: false, pbxServer: true });

/** Who receives: principal -> audience -> [keysRead, serverReads]. An administrator is no owner of another's record. */
const expected: Record<string, Record<string, [boolean, boolean]>> = {
  admin: { tenant: [true, true], admins: [true, true], users: [true, true], owners: [false, false] },
  named: { tenant: [true, true], admins: [false, false], users: [true, true], owners: [true, true] },
  user: { tenant: [true, true], admins: [false, false], users: [false, false], owners: [false, false] },
  pbxKey: { tenant: [true, false], admins: [true, false], users: [true, false], owners: [true, false] },
  scoped: { tenant: [true, false], admins: [true, false], users: [true, false], owners: [true, false] },
  unscoped: { tenant: [false, false], admins: [false, false], users: [false, false], owners: [false, false] },
  pbxServer: { tenant: [false, true], admins: [false, true], users: [false, true], owners: [false, true] },
  internal: { tenant: [false, false], admins: [false, false], users: [false, false], owners: [false, false] },
  operator: { tenant: [false, false], admins: [false, false], users: [false, false], owners: [false, false] },
  otherAdmin: { tenant: [false, false], admins: [false, false], users: [false, false], owners: [false, false] },
  otherPbxKey: { tenant: [false, false], admins: [false, false], users: [false, false], owners: [false, false] },
  otherScoped: { tenant: [false, false], admins: [false, false], users: [false, false], owners: [false, false] },
};

describe('mayReceive', () => {
  it('decides for every principal kind and audience as the table says', () => {
    const actual = Object.fromEntries(
      Object.entries(principals).map(([name, principal]) => [
        name,
        Object.fromEntries(
          Object.entries(audiences).map(([scope, audience]) => [
            scope,
            [keysRead, serverReads].map((kind) => mayReceive(principal, { pbxId: PBX, audience }, kind)),
          ]),
        ),
      ]),
    );
    expect(actual).toEqual(expected);
  });
});
