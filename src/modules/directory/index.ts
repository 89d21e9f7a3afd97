/**
 * Directory: the people and the telephony they own. Users, extensions, SIP devices, phone numbers,
 * caller identities, twinnings, forwards, do-not-disturb, user groups, phone buttons, push devices,
 * WebRTC accounts, in-call state, roaming and user settings.
 */
import type { RoutePlugin } from '../../platform/context.js';
import './directory.usages.js';
import { userRoutes } from './users/users.routes.js';
import { extensionRoutes } from './extensions/extensions.routes.js';
import { sipDeviceRoutes } from './sip-devices/sip-devices.routes.js';
import { phoneNumberRoutes } from './phone-numbers/phone-numbers.routes.js';
import { callerIdentityRoutes } from './caller-identities/caller-identities.routes.js';
import { twinningRoutes } from './twinnings/twinnings.routes.js';
import { userGroupRoutes } from './user-groups/user-groups.routes.js';
import { dndRoutes } from './dnd/dnd.routes.js';
import { forwardRoutes } from './forwards/forwards.routes.js';
import { userSettingRoutes } from './user-settings/user-settings.routes.js';
import { inCallRoutes } from './in-call/in-call.routes.js';
import { pushDeviceRoutes } from './push-devices/push-devices.routes.js';
import { phoneButtonRoutes } from './phone-buttons/phone-buttons.routes.js';
import { webrtcRoutes } from './webrtc/webrtc.routes.js';
import { roamingRoutes } from './roaming/roaming.routes.js';

/** Each resource's routes, registered by modules/index.ts under the API prefix. */
export const directoryRoutes: RoutePlugin[] = [
  userRoutes,
  extensionRoutes,
  sipDeviceRoutes,
  phoneNumberRoutes,
  callerIdentityRoutes,
  twinningRoutes,
  userGroupRoutes,
  dndRoutes,
  forwardRoutes,
  userSettingRoutes,
  inCallRoutes,
  pushDeviceRoutes,
  phoneButtonRoutes,
  webrtcRoutes,
  roamingRoutes,
];

export { seedDirectory } from './directory.seed.js';

// What other domains use.
/** Users are created by the CLI, the demo seed and the test factories as well as by the API. */
export { insertUser, type NewUser } from './users/users.queries.js';
/** The directory arrays of the `/me` profile (identity) and their schemas. */
export { profileDirectory } from './profile.js';
export { Extension } from './extensions/extensions.schemas.js';
export { SipDevice } from './sip-devices/sip-devices.schemas.js';
export { Twinning } from './twinnings/twinnings.schemas.js';
export { CallerIdentity } from './caller-identities/caller-identities.schemas.js';
export { UserGroup } from './user-groups/user-groups.schemas.js';
export { WebrtcSummary } from './webrtc/webrtc.schemas.js';
/** What a placed call may ring and present (calls). */
export { identitiesAvailableToUsers } from './caller-identities/caller-identities.queries.js';
export { twinningsOfUsers } from './twinnings/twinnings.queries.js';
export { findWebrtc } from './webrtc/webrtc.queries.js';
export { sipDevicesOfUsers } from './sip-devices/sip-devices.queries.js';
/** Who the parties of a call are (calls: the engine's call records), and the demo call history's extension numbers. */
export { extensionsByNumber, devicesByUsername, type CallParty, type DeviceParty } from './call-parties.js';
/** A SIP device's presence, which the calls engine hears from the PBX (live events). */
export { deviceRegistered, deviceUnregistered, devicePresenceAudience, PRESENT_STATUSES, ABSENT_STATUSES } from './sip-devices/sip-devices.events.js';
export { extensionsOfUsers } from './extensions/extensions.queries.js';
/** What config-push compiles: the tenant's live telephony, as plain data. */
export {
  loadTelephonySnapshot,
  type TelephonySnapshot,
  type TelephonyUser,
  type TelephonyExtension,
  type TelephonySipDevice,
  type TelephonyWebrtcAccount,
  type TelephonyTwinning,
  type TelephonyForward,
  type TelephonyDnd,
  type TelephonyPhoneNumber,
  type TelephonyCallerIdentity,
} from './telephony-snapshot.js';
/** What routing's graph, validation, simulator and queues read of the directory. */
export { extensionsOfPbx, extensionSummaries, liveExtensionIds } from './extensions/extensions.queries.js';
export { numberDestination, numberDestinations, routeNumberByLabel } from './phone-numbers/phone-numbers.queries.js';
/** A number's route, and the devices its users and extensions ring on (routing's diagrams). */
export { findPhoneNumber } from './phone-numbers/phone-numbers.queries.js';
export { sipDevicesOfExtensions } from './sip-devices/sip-devices.queries.js';
export { usersRefusingRoutedCalls } from './dnd/dnd.queries.js';
/** Numbers outside the PBX (routing's forwards and overflows) read as its phone numbers are. */
export { requireE164, toE164 } from './shared/e164.js';
export { pbxCountry } from './phone-numbers/phone-numbers.service.js';
