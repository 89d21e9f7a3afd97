/**
 * Calls: placing calls (origination), the call history (CDRs and recordings) and the PBX engine
 * that places them (the simulated engine, or Asterisk over AMI with its event listener).
 */
import type { RoutePlugin } from '../../platform/context.js';
import { cdrRoutes } from './cdrs/cdrs.routes.js';
import { originationRoutes } from './origination/calls.routes.js';
import { pbxEngineRoutes } from './engine/pbx-engine.routes.js';

/** Each resource's routes, registered by modules/index.ts under the API prefix. */
export const callsRoutes: RoutePlugin[] = [cdrRoutes, originationRoutes, pbxEngineRoutes];

export { seedCallHistory } from './calls.seed.js';

/** The call-history benchmark builds records and cursors as the service does. */
export { callTimeOf } from './cdrs/call-time.js';
export { encodeCursor } from './cdrs/cdrs.service.js';

/** Configuration push (config-push): delivery through the tenant's engine, and what a simulated PBX runs. */
export {
  deliverConfiguration,
  ConfigurationRefused,
  type ConfigurationDelivery,
  type ConfigurationDeliveryHooks,
  type ConfigurationDeliveryResult,
} from './engine/configuration.js';
export { activeSimulatedConfiguration } from './engine/simulated-engine.js';
