import { randomUUID } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import { Forbidden, NotFound, ValidationFailed, type FieldErrors } from '../../../platform/errors.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { assertPermission, targetUser, toFlag, type UserRow } from '../shared/access.js';
import { toE164 } from '../shared/e164.js';
import { pbxCountry } from '../phone-numbers/phone-numbers.service.js';
import type { CreateTwinningBody, UpdateTwinningBody } from './twinnings.schemas.js';
import { deleteTwinning, findTwinning, insertTwinning, listTwinnings, updateTwinning, type TwinningFilters, type TwinningRow } from './twinnings.queries.js';

export type { TwinningRow } from './twinnings.queries.js';

type Body = Static<typeof UpdateTwinningBody>;
type State = Pick<TwinningRow, 'status' | 'phone_number' | 'delay' | 'type' | 'dial_strategy' | 'fmc_enabled' | 'backup_phone_number' | 'sync_source'>;

const NOT_FOUND = 'Twinning not found.';
/** Provisioning owns these on a provisioned twinning; the API keeps its values. */
const PROVISION_LOCKED = ['phone_number', 'type', 'dial_strategy'] as const;

const label = (field: string) => field.replace(/_/g, ' ');

/**
 * The twinning after applying `body` to `current`: one set of rules for create, PUT and PATCH.
 * Only supplied fields change; numbers are normalised to E.164. Refused, as the contract has it:
 * a change of a provisioned twinning's locked values, and (an invariant the contract implies)
 * `fmc_enabled: false` sent with the backup number that turns FMC on. Accepted and stored as sent,
 * though the PBX uses them only where they apply: a dial strategy on a twinning without FMC; for a
 * teams twinning, numbers and FMC are not kept (a team endpoint is reached through its integration).
 */
function applyChanges(current: State, body: Body, country: string): State {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  const number = (field: 'phone_number' | 'backup_phone_number', raw: string | null | undefined): string | null | undefined => {
    if (raw === undefined) return undefined;
    if (raw === null || raw.trim() === '') return null;
    const e164 = toE164(raw, country);
    if (!e164) fail(field, `The ${label(field)} field must be a valid phone number.`);
    return e164 ?? undefined;
  };
  const phone = number('phone_number', body.phone_number);
  const backup = number('backup_phone_number', body.backup_phone_number);
  if (Object.keys(errors).length) throw new ValidationFailed(errors);

  if (current.sync_source === 'provision') {
    const sent = { phone_number: phone, type: body.type, dial_strategy: body.dial_strategy };
    for (const field of PROVISION_LOCKED) {
      if (sent[field] !== undefined && sent[field] !== current[field]) fail(field, `The ${label(field)} of a provisioned twinning cannot be changed.`);
    }
    if (Object.keys(errors).length) throw new ValidationFailed(errors);
  }

  const next: State = {
    ...current,
    ...(body.status !== undefined ? { status: body.status } : {}),
    ...(body.delay !== undefined ? { delay: body.delay } : {}),
    ...(body.type !== undefined ? { type: body.type } : {}),
    ...(body.dial_strategy !== undefined ? { dial_strategy: body.dial_strategy } : {}),
    ...(phone !== undefined ? { phone_number: phone } : {}),
    ...(backup !== undefined ? { backup_phone_number: backup } : {}),
    ...(body.fmc_enabled !== undefined ? { fmc_enabled: toFlag(body.fmc_enabled) } : {}),
  };

  // A backup number is the FMC fallback leg, so setting one is what turns FMC on.
  if (backup) {
    if (body.fmc_enabled === false) fail('fmc_enabled', 'The fmc enabled field cannot be false while a backup phone number is set.');
    next.fmc_enabled = 1;
  }

  if (Object.keys(errors).length) throw new ValidationFailed(errors);
  // A team-collaboration endpoint is reached through the integration, never by number.
  if (next.type === 'teams') Object.assign(next, { phone_number: null, backup_phone_number: null, fmc_enabled: 0 });
  return next;
}

/** Does `body` change where the twinning rings (the destination a user may be barred from changing)? */
function changesDestination(current: State, next: State): boolean {
  return current.phone_number !== next.phone_number || current.backup_phone_number !== next.backup_phone_number || current.type !== next.type;
}

/** Twinnings: external legs that ring alongside a user's extension. */
export class TwinningsService {
  constructor(private readonly ctx: AppContext) {}

  private owner(tenant: Tenant, principal: Principal, userId: string): Promise<UserRow> {
    return targetUser(this.ctx.db, tenant, principal, userId);
  }

  async list(tenant: Tenant, principal: Principal, userId: string, filters: TwinningFilters, sort: SortTerm[], page: PageRequest) {
    const user = await this.owner(tenant, principal, userId);
    return listTwinnings(this.ctx.db, tenant, user.id, filters, sort, page);
  }

  async get(tenant: Tenant, principal: Principal, userId: string, id: string): Promise<TwinningRow> {
    const user = await this.owner(tenant, principal, userId);
    const row = await findTwinning(this.ctx.db, tenant, user.id, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  /** Created by the PBX's provisioning (its API key) it is a provisioned twinning; otherwise manual. */
  async create(tenant: Tenant, principal: Principal, userId: string, body: Static<typeof CreateTwinningBody>): Promise<TwinningRow> {
    const user = await this.owner(tenant, principal, userId);
    assertPermission(principal, user, 'allow_change_twinning_dest');
    const initial: State = {
      status: 'enabled',
      phone_number: null,
      delay: 0,
      type: 'mobile',
      dial_strategy: 'gsm_only',
      fmc_enabled: 0,
      backup_phone_number: null,
      sync_source: 'manual',
    };
    const state = applyChanges(initial, body, await pbxCountry(this.ctx, tenant));
    const now = this.ctx.clock.now().toISOString();
    const id = randomUUID();
    await insertTwinning(this.ctx.db, {
      ...state,
      id,
      user_id: user.id,
      sync_source: principal.kind === 'pbx' ? 'provision' : 'manual',
      created_at: now,
      updated_at: now,
    });
    return (await findTwinning(this.ctx.db, tenant, user.id, id))!;
  }

  /** PUT and PATCH alike: only supplied fields change. */
  async update(tenant: Tenant, principal: Principal, userId: string, id: string, body: Body): Promise<TwinningRow> {
    const current = await this.get(tenant, principal, userId, id);
    const next = applyChanges(current, body, await pbxCountry(this.ctx, tenant));
    if (changesDestination(current, next)) assertPermission(principal, await this.owner(tenant, principal, userId), 'allow_change_twinning_dest');
    await updateTwinning(this.ctx.db, tenant, id, {
      status: next.status,
      phone_number: next.phone_number,
      delay: next.delay,
      type: next.type,
      dial_strategy: next.dial_strategy,
      fmc_enabled: next.fmc_enabled,
      backup_phone_number: next.backup_phone_number,
      updated_at: this.ctx.clock.now().toISOString(),
    });
    return (await findTwinning(this.ctx.db, tenant, current.user_id, id))!;
  }

  /** A provisioned twinning is the provisioning's to remove: users may not delete it themselves. */
  async delete(tenant: Tenant, principal: Principal, userId: string, id: string): Promise<void> {
    const row = await this.get(tenant, principal, userId, id);
    const manager = principal.kind !== 'user' || principal.role === 'admin';
    if (!manager && row.sync_source === 'provision') throw new Forbidden('A provisioned twinning can only be removed by an administrator or provisioning.');
    if (!manager) assertPermission(principal, await this.owner(tenant, principal, userId), 'allow_change_twinning_dest');
    await deleteTwinning(this.ctx.db, tenant, id);
  }
}
