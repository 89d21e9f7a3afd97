import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { Static } from '@sinclair/typebox';
import { NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import { restore, softDelete } from '../../../platform/soft-delete.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { guardUnique } from '../../../platform/unique.js';
import { existsInPbx } from '../../../platform/references.js';
import { withNextVoipId } from '../shared/db-helpers.js';
import { requireE164 } from '../shared/e164.js';
import { assertTenantUser } from '../shared/user-summary.js';
import type { PhoneNumberTable } from '../directory.tables.js';
import { findExtension } from '../extensions/extensions.queries.js';
import { findPbx } from '../../../platform/tenancy.js';
import type { CreatePhoneNumberBody, UpdatePhoneNumberBody } from './phone-numbers.schemas.js';
import {
  findPhoneNumber,
  insertPhoneNumber,
  listPhoneNumbers,
  updatePhoneNumber,
  type PhoneNumberFilters,
  type PhoneNumberRow,
} from './phone-numbers.queries.js';

export type { PhoneNumberRow } from './phone-numbers.queries.js';

/** Routing's resources a number can point at (routing sits above the directory: checked by table). */
const ROUTED_TABLES: Record<string, string> = { call_flow: 'call_flows', ivr: 'ivrs', queue: 'queues' };
const NOT_FOUND = 'Phone number not found.';
const TAKEN = [{ match: 'number', field: 'number', message: 'The number has already been taken.' }];

/** The country whose numbering plan reads the PBX's numbers written without a country code. */
export async function pbxCountry(ctx: AppContext, tenant: Tenant): Promise<string> {
  return (await findPbx(ctx.db, tenant.pbxId))?.country_code ?? 'LU';
}

/** Phone numbers (DIDs) in E.164, unique across the platform, each routed to a user or extension. */
export class PhoneNumbersService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, filters: PhoneNumberFilters, sort: SortTerm[], page: PageRequest) {
    return listPhoneNumbers(this.ctx.db, tenant, filters, sort, page);
  }

  async get(tenant: Tenant, id: string): Promise<PhoneNumberRow> {
    const row = await findPhoneNumber(this.ctx.db, tenant, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  private async checkDestination(tenant: Tenant, type: string, id: string | null): Promise<void> {
    if (type === 'none') {
      if (id) throw ValidationFailed.field('destination_id', 'The destination id field must be empty when destination type is none.');
      return;
    }
    if (!id) throw ValidationFailed.field('destination_id', 'The destination id field is required unless destination type is none.');
    if (type === 'user') await assertTenantUser(this.ctx.db, tenant, id, 'destination_id');
    if (type === 'extension' && !(await findExtension(this.ctx.db, tenant, id)))
      throw ValidationFailed.field('destination_id', 'The selected destination id is invalid.');
    const routed = ROUTED_TABLES[type];
    if (routed && !(await existsInPbx(this.ctx.db, tenant, routed, id)))
      throw ValidationFailed.field('destination_id', 'The selected destination id is invalid.');
  }

  async create(tenant: Tenant, body: Static<typeof CreatePhoneNumberBody>): Promise<PhoneNumberRow> {
    const number = requireE164(body.number, await pbxCountry(this.ctx, tenant), 'number');
    const destinationType = body.destination_type ?? 'none';
    await this.checkDestination(tenant, destinationType, body.destination_id ?? null);
    const now = this.ctx.clock.now().toISOString();
    const id = randomUUID();
    await guardUnique(TAKEN, () =>
      withNextVoipId(this.ctx.db, 'phone_numbers', tenant.pbxId, (voipId) =>
        insertPhoneNumber(this.ctx.db, {
          id,
          pbx_id: tenant.pbxId,
          voip_id: voipId,
          number,
          label: body.label ?? null,
          destination_type: destinationType,
          destination_id: body.destination_id ?? null,
          created_at: now,
          updated_at: now,
        }),
      ),
    );
    return this.get(tenant, id);
  }

  async update(tenant: Tenant, id: string, body: Static<typeof UpdatePhoneNumberBody>): Promise<PhoneNumberRow> {
    const row = await this.get(tenant, id);
    const changes: Updateable<PhoneNumberTable> = { updated_at: this.ctx.clock.now().toISOString() };
    if (body.number !== undefined) changes.number = requireE164(body.number, await pbxCountry(this.ctx, tenant), 'number');
    if (body.label !== undefined) changes.label = body.label;
    if (body.destination_type !== undefined || body.destination_id !== undefined) {
      const type = body.destination_type ?? row.destination_type;
      const target = body.destination_id !== undefined ? body.destination_id : type === 'none' ? null : row.destination_id;
      await this.checkDestination(tenant, type, target);
      changes.destination_type = type;
      changes.destination_id = target;
    }
    await guardUnique(TAKEN, () => updatePhoneNumber(this.ctx.db, tenant, id, changes));
    return this.get(tenant, id);
  }

  delete(tenant: Tenant, id: string): Promise<void> {
    return softDelete(this.ctx.db, this.ctx.clock, 'phone_numbers', tenant, id, NOT_FOUND);
  }

  async restore(tenant: Tenant, id: string): Promise<PhoneNumberRow> {
    await restore(this.ctx.db, this.ctx.clock, 'phone_numbers', tenant, id, NOT_FOUND);
    return this.get(tenant, id);
  }
}
