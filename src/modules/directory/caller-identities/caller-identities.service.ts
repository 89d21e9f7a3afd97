import { randomUUID } from 'node:crypto';
import type { Kysely, Updateable } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { DB } from '../../../db/schema.js';
import { Forbidden, NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import { restore, softDelete } from '../../../platform/soft-delete.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { targetUser, toFlag } from '../shared/access.js';
import { withNextVoipId } from '../shared/db-helpers.js';
import { requireE164 } from '../shared/e164.js';
import { assertTenantUser } from '../shared/user-summary.js';
import type { CallerIdentityTable } from '../directory.tables.js';
import { findPhoneNumber } from '../phone-numbers/phone-numbers.queries.js';
import { pbxCountry } from '../phone-numbers/phone-numbers.service.js';
import type { CreateCallerIdentityBody, UpdateCallerIdentityBody } from './caller-identities.schemas.js';
import {
  findCallerIdentity,
  identitiesAvailableToUsers,
  insertCallerIdentity,
  listCallerIdentities,
  updateCallerIdentity,
  type CallerIdentityFilters,
  type CallerIdentityRow,
} from './caller-identities.queries.js';

export type { CallerIdentityRow } from './caller-identities.queries.js';

const NOT_FOUND = 'Caller identity not found.';

/** For each user, the identities it may present (its own and the PBX-wide ones). */
export async function callerIdentitiesOfUsers(db: Kysely<DB>, tenant: Tenant, userIds: string[]): Promise<Map<string, CallerIdentityRow[]>> {
  const rows = await identitiesAvailableToUsers(db, tenant, userIds);
  return new Map(userIds.map((id) => [id, rows.filter((row) => row.user_id === null || row.user_id === id)]));
}

/** Caller identities: numbers a user may present on outgoing calls. */
export class CallerIdentitiesService {
  constructor(private readonly ctx: AppContext) {}

  /** A user who is not an administrator sees the identities it may present, and never deleted ones. */
  list(tenant: Tenant, principal: Principal, filters: Omit<CallerIdentityFilters, 'availableTo'>, sort: SortTerm[], page: PageRequest) {
    const restricted = principal.kind === 'user' && principal.role !== 'admin';
    const scoped: CallerIdentityFilters = restricted ? { ...filters, availableTo: principal.userId, trashed: undefined } : filters;
    return listCallerIdentities(this.ctx.db, tenant, scoped, sort, page);
  }

  /** The identities one user may present: the user itself, or an administrator or the PBX for any user of the PBX. */
  async ofUser(tenant: Tenant, principal: Principal, userId: string): Promise<CallerIdentityRow[]> {
    const user = await targetUser(this.ctx.db, tenant, principal, userId);
    return (await callerIdentitiesOfUsers(this.ctx.db, tenant, [user.id])).get(user.id) ?? [];
  }

  async get(tenant: Tenant, id: string): Promise<CallerIdentityRow> {
    const row = await findCallerIdentity(this.ctx.db, tenant, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  /** A user reads the identities it may present; another user's personal one is refused. */
  async getFor(tenant: Tenant, principal: Principal, id: string): Promise<CallerIdentityRow> {
    const row = await this.get(tenant, id);
    if (principal.kind === 'user' && principal.role !== 'admin' && row.user_id !== null && row.user_id !== principal.userId) {
      throw new Forbidden('You may only act on your own records.');
    }
    return row;
  }

  private async rootNumber(tenant: Tenant, phoneNumberId: string): Promise<string> {
    const root = await findPhoneNumber(this.ctx.db, tenant, phoneNumberId);
    if (!root) throw ValidationFailed.field('phone_number_id', 'The selected phone number id is invalid.');
    return root.number;
  }

  async create(tenant: Tenant, body: Static<typeof CreateCallerIdentityBody>): Promise<CallerIdentityRow> {
    const root = await this.rootNumber(tenant, body.phone_number_id);
    if (body.user_id) await assertTenantUser(this.ctx.db, tenant, body.user_id);
    const number = body.external_caller_number ? requireE164(body.external_caller_number, await pbxCountry(this.ctx, tenant), 'external_caller_number') : root;
    const now = this.ctx.clock.now().toISOString();
    const id = randomUUID();
    await withNextVoipId(this.ctx.db, 'caller_identities', tenant.pbxId, (voipId) =>
      insertCallerIdentity(this.ctx.db, {
        id,
        pbx_id: tenant.pbxId,
        voip_id: voipId,
        user_id: body.user_id ?? null,
        phone_number_id: body.phone_number_id,
        name: body.name,
        external_caller_number: number,
        external_caller_extension: body.external_caller_extension ?? '',
        is_default: toFlag(body.is_default ?? false),
        created_at: now,
        updated_at: now,
      }),
    );
    return this.get(tenant, id);
  }

  async update(tenant: Tenant, id: string, body: Static<typeof UpdateCallerIdentityBody>): Promise<CallerIdentityRow> {
    await this.get(tenant, id);
    const changes: Updateable<CallerIdentityTable> = { updated_at: this.ctx.clock.now().toISOString() };
    if (body.phone_number_id !== undefined) {
      const root = await this.rootNumber(tenant, body.phone_number_id);
      changes.phone_number_id = body.phone_number_id;
      if (body.external_caller_number === undefined) changes.external_caller_number = root;
    }
    if (body.external_caller_number !== undefined)
      changes.external_caller_number = requireE164(body.external_caller_number, await pbxCountry(this.ctx, tenant), 'external_caller_number');
    if (body.user_id) await assertTenantUser(this.ctx.db, tenant, body.user_id);
    if (body.user_id !== undefined) changes.user_id = body.user_id;
    if (body.name !== undefined) changes.name = body.name;
    if (body.external_caller_extension !== undefined) changes.external_caller_extension = body.external_caller_extension;
    if (body.is_default !== undefined) changes.is_default = toFlag(body.is_default);
    await updateCallerIdentity(this.ctx.db, tenant, id, changes);
    return this.get(tenant, id);
  }

  delete(tenant: Tenant, id: string): Promise<void> {
    return softDelete(this.ctx.db, this.ctx.clock, 'caller_identities', tenant, id, NOT_FOUND);
  }

  async restore(tenant: Tenant, id: string): Promise<CallerIdentityRow> {
    await restore(this.ctx.db, this.ctx.clock, 'caller_identities', tenant, id, NOT_FOUND);
    return this.get(tenant, id);
  }
}
