import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../platform/context.js';
import { healthRoutes } from './operations/health.routes.js';
import { authRoutes } from './identity/auth/auth.routes.js';
import { meRoutes } from './identity/me/me.routes.js';
import { apiKeyRoutes } from './integrations/api-keys/api-keys.routes.js';
import { userRoutes } from './directory/users/users.routes.js';
import { extensionRoutes } from './directory/extensions/extensions.routes.js';
import { sipDeviceRoutes } from './directory/sip-devices/sip-devices.routes.js';
import { phoneNumberRoutes } from './directory/phone-numbers/phone-numbers.routes.js';
import { callerIdentityRoutes } from './directory/caller-identities/caller-identities.routes.js';
import { twinningRoutes } from './directory/twinnings/twinnings.routes.js';
import { userGroupRoutes } from './directory/user-groups/user-groups.routes.js';
import { dndRoutes } from './directory/dnd/dnd.routes.js';
import { forwardRoutes } from './directory/forwards/forwards.routes.js';
import { userSettingRoutes } from './directory/user-settings/user-settings.routes.js';
import { inCallRoutes } from './directory/in-call/in-call.routes.js';
import { pushDeviceRoutes } from './directory/push-devices/push-devices.routes.js';
import { phoneButtonRoutes } from './directory/phone-buttons/phone-buttons.routes.js';
import { webrtcRoutes } from './directory/webrtc/webrtc.routes.js';
import { roamingRoutes } from './directory/roaming/roaming.routes.js';
import { contactRoutes } from './address-book/contacts/contacts.routes.js';
import { cdrRoutes } from './calls/cdrs/cdrs.routes.js';
import { callRoutes } from './calls/origination/calls.routes.js';
import { pbxEngineRoutes } from './calls/engine/pbx-engine.routes.js';
import { contactImportRoutes } from './address-book/imports/contact-imports.routes.js';
import { webhookRoutes } from './integrations/webhooks/webhooks.routes.js';

/** Users and the telephony directory (issue #3). */
const DIRECTORY_MODULES = [userRoutes, extensionRoutes, sipDeviceRoutes, phoneNumberRoutes, callerIdentityRoutes, twinningRoutes, userGroupRoutes,
  dndRoutes, forwardRoutes, userSettingRoutes, inCallRoutes, pushDeviceRoutes, phoneButtonRoutes, webrtcRoutes, roamingRoutes];

/** Calls, call history and the PBX engine (issue #4). */
const CALL_MODULES = [cdrRoutes, callRoutes, pbxEngineRoutes];

/** Every domain module, mounted under the API prefix (health and metrics stay at the root). */
const API_MODULES = [authRoutes, meRoutes, apiKeyRoutes, ...DIRECTORY_MODULES, contactRoutes, contactImportRoutes, webhookRoutes, ...CALL_MODULES];

export async function registerModules(app: FastifyInstance, { ctx, apiPrefix }: { ctx: AppContext; apiPrefix: string }): Promise<void> {
  await app.register(healthRoutes, { ctx });
  for (const module of API_MODULES) await app.register(module, { ctx, prefix: apiPrefix });
}
