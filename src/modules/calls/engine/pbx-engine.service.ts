import type { Static } from '@sinclair/typebox';
import { NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { tenantPrefix } from '../../../platform/pbx-names.js';
import { IANAZone } from 'luxon';
import { amiConnectionOf, AsteriskEngine } from './ami/asterisk-engine.js';
import { testAmiConnection } from './ami/connection-test.js';
import type { AmiEventHub } from './ami/event-hub.js';
import { AmiHostGuard, AmiHostRefused } from './ami/host-guard.js';
import { EngineFailure, type PbxEngine } from './engine.js';
import { countFailingAmiSettings, deleteAmiSettings, findAmiSettings, pbxTimezone, saveAmiSettings } from './pbx-engine.queries.js';
import { presentAmiSettings, presentConnectionTest, type AmiSettingsRow } from './pbx-engine.presenter.js';
import { DEFAULT_AMI_PORT, type AmiSettings, type SaveAmiSettingsBody } from './pbx-engine.schemas.js';
import { SimulatedEngine } from './simulated-engine.js';

/** The tenant's engine: Asterisk when its AMI settings are enabled, else the configured default. */
export async function engineFor(ctx: AppContext, tenant: Tenant): Promise<PbxEngine> {
  const settings = await findAmiSettings(ctx.db, tenant);
  if (settings && settings.enabled === 1) return new AsteriskEngine(ctx, amiConnectionOf(ctx, settings));
  if (ctx.config.pbxEngine === 'simulated') return new SimulatedEngine(ctx);
  throw new EngineFailure(503, 'No PBX engine is configured for this PBX.');
}

/** Per-PBX AMI connection settings, managed by the PBX's administrators. */
export class PbxEngineService {
  private readonly guard: AmiHostGuard;

  constructor(
    private readonly ctx: AppContext,
    private readonly hub: AmiEventHub | null,
  ) {
    this.guard = new AmiHostGuard(ctx.config);
  }

  /** A host outside the operator's allow-list is a 422 on `host`, before anything connects to it. */
  private async assertHostAdmitted(host: string): Promise<void> {
    try {
      await this.guard.check(host);
    } catch (error) {
      if (error instanceof AmiHostRefused) throw ValidationFailed.field('host', error.message);
      throw error;
    }
  }

  async get(tenant: Tenant): Promise<AmiSettingsRow> {
    const row = await findAmiSettings(this.ctx.db, tenant);
    if (!row) throw new NotFound('No AMI settings are stored for this PBX.');
    return row;
  }

  /** The settings as the contract shows them (the host's time zone defaults to the PBX's). */
  async read(tenant: Tenant): Promise<Static<typeof AmiSettings>> {
    return presentAmiSettings(await this.get(tenant), await pbxTimezone(this.ctx.db, tenant));
  }

  async save(tenant: Tenant, body: Static<typeof SaveAmiSettingsBody>): Promise<Static<typeof AmiSettings>> {
    const existing = await findAmiSettings(this.ctx.db, tenant);
    if (!existing && !body.secret) throw ValidationFailed.field('secret', 'The secret field is required.');
    await this.assertHostAdmitted(body.host);
    if (body.pbx_timezone && !IANAZone.isValidZone(body.pbx_timezone)) {
      throw ValidationFailed.field('pbx_timezone', 'The pbx timezone must be an IANA time zone such as Europe/Luxembourg.');
    }
    const now = this.ctx.clock.now().toISOString();
    await saveAmiSettings(this.ctx.db, {
      pbx_id: tenant.pbxId,
      host: body.host,
      port: body.port ?? DEFAULT_AMI_PORT,
      username: body.username,
      secret_sealed: body.secret ? this.ctx.secrets.seal(body.secret) : existing!.secret_sealed,
      enabled: (body.enabled ?? true) ? 1 : 0,
      context: body.context ?? tenantPrefix(tenant.pbxId),
      pbx_timezone: body.pbx_timezone === undefined ? (existing?.pbx_timezone ?? null) : body.pbx_timezone,
      // Saved settings start afresh: the listener tries them at once.
      login_failures: 0,
      failing_since: null,
      last_error: null,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    });
    await this.hub?.refresh(tenant.pbxId);
    return this.read(tenant);
  }

  async remove(tenant: Tenant): Promise<void> {
    if ((await deleteAmiSettings(this.ctx.db, tenant)) === 0) throw new NotFound('No AMI settings are stored for this PBX.');
    await this.hub?.refresh(tenant.pbxId);
  }

  /** The stored settings tried: connect, log in, the permissions the engine needs (a failed check is the engine's 502). */
  async test(tenant: Tenant, trace: boolean) {
    const row = await this.get(tenant);
    await this.assertHostAdmitted(row.host);
    return presentConnectionTest(await testAmiConnection(this.ctx, amiConnectionOf(this.ctx, row), trace));
  }

  /** How many enabled PBXs have failing AMI settings (for /metrics). */
  failingSettings(): Promise<number> {
    return countFailingAmiSettings(this.ctx.db);
  }
}
