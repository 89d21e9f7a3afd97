import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Tenant } from '../../platform/tenancy.js';
import type { UserRow } from './shared/access.js';
import { callerIdentitiesOfUsers } from './caller-identities/caller-identities.service.js';
import { presentCallerIdentity } from './caller-identities/caller-identities.presenter.js';
import { extensionsOfUsers } from './extensions/extensions.queries.js';
import { presentExtension } from './extensions/extensions.presenter.js';
import { sipDevicesOfUsers } from './sip-devices/sip-devices.queries.js';
import { presentSipDevice } from './sip-devices/sip-devices.presenter.js';
import { twinningsOfUsers } from './twinnings/twinnings.queries.js';
import { presentTwinning } from './twinnings/twinnings.presenter.js';
import { groupsOfUsers } from './user-groups/user-groups.service.js';
import { presentUserGroup } from './user-groups/user-groups.presenter.js';
import { webrtcSummary } from './webrtc/webrtc.service.js';

/** The directory arrays of the `/me` profile, each in its module's presentation. */
export async function profileDirectory(db: Kysely<DB>, tenant: Tenant, user: UserRow) {
  const [extensions, devices, twinnings, groups, identities, webrtc] = await Promise.all([
    extensionsOfUsers(db, tenant, [user.id]),
    sipDevicesOfUsers(db, tenant, [user.id]),
    twinningsOfUsers(db, tenant, [user.id]),
    groupsOfUsers(db, tenant, [user.id]),
    callerIdentitiesOfUsers(db, tenant, [user.id]),
    webrtcSummary(db, tenant, user),
  ]);
  return {
    extensions: extensions.map(presentExtension),
    sipDevices: devices.map(presentSipDevice),
    twinnings: twinnings.map(presentTwinning),
    groups: (groups.get(user.id) ?? []).map((group) => presentUserGroup(group, group.members)),
    caller_identities: (identities.get(user.id) ?? []).map(presentCallerIdentity),
    webrtc_configuration: webrtc,
  };
}
