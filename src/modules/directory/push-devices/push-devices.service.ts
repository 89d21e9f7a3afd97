import { randomUUID } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import { NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { findTwinning } from '../twinnings/twinnings.queries.js';
import type { RegisterDeviceBody } from './push-devices.schemas.js';
import {
  deleteDevice,
  findDevice,
  findDeviceByToken,
  listDevices,
  setDeviceActive,
  upsertDevice,
  type DeviceFilters,
  type PushDeviceRow,
} from './push-devices.queries.js';

export type { PushDeviceRow } from './push-devices.queries.js';

const NOT_FOUND = 'Device not found.';

/** Push channels of the caller's own app installations. */
export class PushDevicesService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, userId: string, filters: DeviceFilters, sort: SortTerm[], page: PageRequest) {
    return listDevices(this.ctx.db, tenant, userId, filters, sort, page);
  }

  async get(tenant: Tenant, userId: string, id: string): Promise<PushDeviceRow> {
    const row = await findDevice(this.ctx.db, tenant, userId, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  async register(tenant: Tenant, userId: string, body: Static<typeof RegisterDeviceBody>): Promise<PushDeviceRow> {
    if (body.twinning_id && !(await findTwinning(this.ctx.db, tenant, userId, body.twinning_id))) {
      throw ValidationFailed.field('twinning_id', 'The selected twinning id is invalid.');
    }
    const now = this.ctx.clock.now().toISOString();
    await upsertDevice(this.ctx.db, {
      id: randomUUID(),
      pbx_id: tenant.pbxId,
      user_id: userId,
      twinning_id: body.twinning_id ?? null,
      name: body.name ?? null,
      type: body.type,
      token: body.token,
      is_active: 1,
      last_used_at: now,
      created_at: now,
      updated_at: now,
    });
    return (await findDeviceByToken(this.ctx.db, body.token))!;
  }

  async deactivate(tenant: Tenant, userId: string, id: string): Promise<PushDeviceRow> {
    await this.get(tenant, userId, id);
    await setDeviceActive(this.ctx.db, tenant, userId, id, false, this.ctx.clock.now().toISOString());
    return this.get(tenant, userId, id);
  }

  async delete(tenant: Tenant, userId: string, id: string): Promise<void> {
    await this.get(tenant, userId, id);
    await deleteDevice(this.ctx.db, tenant, userId, id);
  }
}
