import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../platform/context.js';
import { healthRoutes } from './health/health.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { meRoutes } from './me/me.routes.js';
import { apiKeyRoutes } from './api-keys/api-keys.routes.js';
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
import { contactRoutes } from './contacts/contacts.routes.js';
import { cdrRoutes } from './cdrs/cdrs.routes.js';
import { callRoutes } from './calls/calls.routes.js';
import { pbxEngineRoutes } from './pbx-engine/pbx-engine.routes.js';
import { contactImportRoutes } from './contact-imports/contact-imports.routes.js';
import { webhookRoutes } from '../platform/webhooks/webhooks.routes.js';

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
