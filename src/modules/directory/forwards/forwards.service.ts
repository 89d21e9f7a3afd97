import { randomUUID } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import { NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { assertPermission, targetUser, toFlag, type UserRow } from '../shared/access.js';
import { guardUnique } from '../../../platform/unique.js';
import { requireE164 } from '../shared/e164.js';
import { findExtensionByNumber } from '../extensions/extensions.queries.js';
import { pbxCountry } from '../phone-numbers/phone-numbers.service.js';
import type { CreateForwardBody, UpdateForwardBody } from './forwards.schemas.js';
import { deleteForward, findForward, insertForward, listForwards, updateForward, type ForwardRow } from './forwards.queries.js';
import { publishForwardChanged } from './forwards.events.js';

export type { ForwardRow } from './forwards.queries.js';

const NOT_FOUND = 'Forward not found.';
const DUPLICATE = [{ match: 'type', field: 'type', message: 'A forward of this type already exists for this user.' }];

/** Call forwards of a user: one per condition, to a number, an extension of the PBX or voicemail. */
export class ForwardsService {
  constructor(private readonly ctx: AppContext) {}

  private async owner(tenant: Tenant, principal: Principal, userId: string, write: boolean): Promise<UserRow> {
    const user = await targetUser(this.ctx.db, tenant, principal, userId);
    if (write) assertPermission(principal, user, 'allow_call_forwarding');
    return user;
  }

  /** The destination in its stored form: E.164 for a number, an existing extension number, nothing for voicemail. */
  private async destination(tenant: Tenant, type: ForwardRow['destination_type'], raw: string | null | undefined): Promise<string | null> {
    if (type === 'voicemail') {
      if (raw) throw ValidationFailed.field('destination', 'The destination field must be empty for voicemail.');
      return null;
    }
    if (!raw) throw ValidationFailed.field('destination', 'The destination field is required.');
    if (type === 'number') return requireE164(raw, await pbxCountry(this.ctx, tenant), 'destination');
    if (!(await findExtensionByNumber(this.ctx.db, tenant, raw)))
      throw ValidationFailed.field('destination', 'The selected destination is not an extension of this PBX.');
    return raw;
  }

  async list(tenant: Tenant, principal: Principal, userId: string, filters: { type?: string; enabled?: boolean }) {
    const user = await this.owner(tenant, principal, userId, false);
    return listForwards(this.ctx.db, tenant, user.id, filters);
  }

  /** One forward, readable as the list is (no allow_call_forwarding needed). */
  async get(tenant: Tenant, principal: Principal, userId: string, id: string): Promise<ForwardRow> {
    const user = await this.owner(tenant, principal, userId, false);
    return this.load(tenant, user.id, id);
  }

  private async load(tenant: Tenant, userId: string, id: string): Promise<ForwardRow> {
    const row = await findForward(this.ctx.db, tenant, userId, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  async create(tenant: Tenant, principal: Principal, userId: string, body: Static<typeof CreateForwardBody>): Promise<ForwardRow> {
    const user = await this.owner(tenant, principal, userId, true);
    const destination = await this.destination(tenant, body.destination_type, body.destination);
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await this.ctx.db.transaction().execute(async (trx) => {
      await guardUnique(DUPLICATE, () =>
        insertForward(trx, {
          id,
          pbx_id: tenant.pbxId,
          user_id: user.id,
          type: body.type,
          destination_type: body.destination_type,
          destination,
          delay: body.delay ?? (body.type === 'no_answer' ? 20 : 0),
          enabled: toFlag(body.enabled ?? true),
          created_at: now,
          updated_at: now,
        }),
      );
      await publishForwardChanged(this.ctx, trx, tenant, user.id);
    });
    return this.load(tenant, user.id, id);
  }

  async update(tenant: Tenant, principal: Principal, userId: string, id: string, body: Static<typeof UpdateForwardBody>): Promise<ForwardRow> {
    const user = await this.owner(tenant, principal, userId, true);
    const row = await this.load(tenant, user.id, id);
    const destinationType = body.destination_type ?? row.destination_type;
    const destinationChanged = body.destination_type !== undefined || body.destination !== undefined;
    const destination = destinationChanged
      ? await this.destination(tenant, destinationType, body.destination !== undefined ? body.destination : row.destination)
      : row.destination;
    await this.ctx.db.transaction().execute(async (trx) => {
      await guardUnique(DUPLICATE, () =>
        updateForward(trx, tenant, id, {
          ...(body.type !== undefined ? { type: body.type } : {}),
          destination_type: destinationType,
          destination,
          ...(body.delay !== undefined ? { delay: body.delay } : {}),
          ...(body.enabled !== undefined ? { enabled: toFlag(body.enabled) } : {}),
          updated_at: this.ctx.clock.now().toISOString(),
        }),
      );
      await publishForwardChanged(this.ctx, trx, tenant, user.id);
    });
    return this.load(tenant, user.id, id);
  }

  async delete(tenant: Tenant, principal: Principal, userId: string, id: string): Promise<void> {
    const user = await this.owner(tenant, principal, userId, true);
    await this.load(tenant, user.id, id);
    await this.ctx.db.transaction().execute(async (trx) => {
      await deleteForward(trx, tenant, id);
      await publishForwardChanged(this.ctx, trx, tenant, user.id);
    });
  }
}
