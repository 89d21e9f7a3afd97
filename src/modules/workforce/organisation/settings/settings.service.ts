import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../../../platform/context.js';
import { NotFound } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { findSettings, updateSettings, type SettingsRow } from './settings.queries.js';
import type { UpdateWorkforceSettingsBody } from './settings.schemas.js';

export type { SettingsRow };

/** The tenant's workforce settings: its name order and half-day split (the time zone is the PBX's). */
export class WorkforceSettingsService {
  constructor(private readonly ctx: AppContext) {}

  async get(tenant: Tenant): Promise<SettingsRow> {
    const row = await findSettings(this.ctx.db, tenant);
    if (!row) throw new NotFound('PBX not found.');
    return row;
  }

  async update(tenant: Tenant, body: Static<typeof UpdateWorkforceSettingsBody>): Promise<SettingsRow> {
    await updateSettings(this.ctx.db, tenant, {
      ...(body.name_order !== undefined ? { name_order: body.name_order } : {}),
      ...(body.half_day_split !== undefined ? { half_day_split: body.half_day_split } : {}),
      updated_at: this.ctx.clock.now().toISOString(),
    });
    return this.get(tenant);
  }
}
