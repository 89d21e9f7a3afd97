/**
 * Delivering a PBX's configuration through its engine: Asterisk over AMI (files written with
 * UpdateConfig, modules reloaded; see ami/config-delivery.ts) when the PBX's AMI settings are
 * enabled, else the simulated engine, which makes the files the simulation's active configuration.
 */
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { amiConnectionOf } from './ami/asterisk-engine.js';
import { AmiError } from './ami/client.js';
import { deliverConfigurationOverAmi, type DeliveredFile } from './ami/config-delivery.js';
import { findAmiSettings } from './pbx-engine.queries.js';
import { SimulatedEngine } from './simulated-engine.js';

export interface ConfigurationDelivery {
  version: number;
  hash: string;
  /** Asterisk configuration files (`*.conf`), each with its sections and rendered content. */
  files: Array<DeliveredFile & { sha256: string; content: string }>;
  /** Names of the files that differ from what the PBX ran: their modules are reloaded. */
  changed: string[];
  /** The engine the running version went to: on another engine every file counts as changed. */
  lastEngine: string | null;
  /** The routing the version was compiled from (JSON), for the simulated engine to route calls by. */
  routing: string | null;
}

export interface ConfigurationDeliveryHooks {
  /** Aborted when the delivery lost its turn (its job taken over): the engine stops before the files go live. */
  signal?: AbortSignal;
  /** The engine is about to write the files. */
  onDelivering(engine: 'simulated' | 'asterisk'): Promise<void>;
  /** The files are written; the reloads come next. */
  onReloading(): Promise<void>;
}

export interface ConfigurationDeliveryResult {
  engine: 'simulated' | 'asterisk';
  reloaded: string[];
}

/** The PBX refused the configuration (or no engine can take it): another attempt would fail alike. */
export class ConfigurationRefused extends Error {}

const PERMANENT: ReadonlySet<AmiError['kind']> = new Set(['rejected', 'not_admitted', 'login_failed', 'protocol']);

/**
 * Delivers the configuration to the tenant's PBX. Throws ConfigurationRefused when the PBX refused
 * it, any other error when the PBX could not be reached or stopped answering (worth a retry).
 */
export async function deliverConfiguration(
  ctx: AppContext,
  tenant: Tenant,
  delivery: ConfigurationDelivery,
  hooks: ConfigurationDeliveryHooks,
): Promise<ConfigurationDeliveryResult> {
  const settings = await findAmiSettings(ctx.db, tenant);
  if (settings && settings.enabled === 1) {
    await hooks.onDelivering('asterisk');
    try {
      // The running version went elsewhere (the simulation, before AMI was set up): this Asterisk has never read these files.
      const changed = delivery.lastEngine === 'asterisk' ? delivery.changed : delivery.files.map((file) => file.name);
      const result = await deliverConfigurationOverAmi(ctx.config, amiConnectionOf(ctx, settings), delivery.files, changed, {
        onReloading: () => hooks.onReloading(),
        signal: hooks.signal,
      });
      return { engine: 'asterisk', reloaded: result.reloaded };
    } catch (error) {
      if (error instanceof AmiError && PERMANENT.has(error.kind)) throw new ConfigurationRefused(error.message);
      throw error;
    }
  }
  if (ctx.config.pbxEngine !== 'simulated') throw new ConfigurationRefused('No PBX engine is configured for this PBX.');
  await hooks.onDelivering('simulated');
  const engine = new SimulatedEngine(ctx);
  await engine.applyConfiguration(tenant, delivery);
  await hooks.onReloading();
  return { engine: 'simulated', reloaded: [] };
}
