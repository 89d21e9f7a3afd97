/**
 * Configuration push: the PBX's Asterisk configuration compiled from its directory and routing
 * (`compiler/`), the dry run and its diff, pushes as versions delivered by a durable job through
 * the calls domain's engine, rollback, and the unpushed-changes status.
 */
import type { RoutePlugin } from '../../platform/context.js';
import { configPushRoutes } from './config-push.routes.js';

export {
  compileConfiguration,
  deliverableContent,
  loadConfigurationSnapshot,
  manifestFile,
  renderConfig,
  secretToken,
  tenantPrefix,
  type CompiledConfiguration,
  type ConfigFile,
  type ConfigLine,
  type ConfigSection,
  type ConfigurationSnapshot,
  type SealedSecret,
} from './compiler/index.js';

/** The domain's routes, registered by modules/index.ts under the API prefix. */
export const configPushDomainRoutes: RoutePlugin[] = [configPushRoutes];
export { seedConfigPush } from './config-push.seed.js';
