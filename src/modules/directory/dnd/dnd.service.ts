import { randomUUID } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import { NotFound, ValidationFailed, type FieldErrors } from '../../../platform/errors.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { assertPermission, targetUser, toFlag, type UserRow } from '../shared/access.js';
import { guardUnique } from '../../../platform/unique.js';
import { findCallerIdentity } from '../caller-identities/caller-identities.queries.js';
import { findExtension } from '../extensions/extensions.queries.js';
import type { BulkDndBody, CreateDndBody, ReplaceDndBody } from './dnd.schemas.js';
import { deleteDnd, findDnd, findDndByKey, insertDnd, listDnds, updateDnd, type DndRow } from './dnd.queries.js';
import { publishDndChanged } from './dnd.events.js';

export type { DndRow } from './dnd.queries.js';

const NOT_FOUND = 'DND rule not found.';
const DUPLICATE = [{ match: 'rule_key', field: 'type', message: 'A DND rule for this target already exists.' }];

interface Rule {
  type: 'internal' | 'external';
  caller_identity_id: string | null;
  extension_id: string | null;
  status: boolean;
}

const ruleKey = (rule: Rule) => `${rule.type}:${rule.caller_identity_id ?? ''}:${rule.extension_id ?? ''}`;

/** Do-not-disturb rules of a user: one per target (internal calls, or calls to one caller identity). */
export class DndService {
  constructor(private readonly ctx: AppContext) {}

  private async owner(tenant: Tenant, principal: Principal, userId: string, write: boolean): Promise<UserRow> {
    const user = await targetUser(this.ctx.db, tenant, principal, userId);
    if (write) assertPermission(principal, user, 'allow_dnd');
    return user;
  }

  /** The rule's targets must be the user's: an identity it may present, one of its extensions. */
  private async check(tenant: Tenant, user: UserRow, rule: Rule, prefix = ''): Promise<FieldErrors> {
    const errors: FieldErrors = {};
    const field = (name: string) => `${prefix}${name}`;
    if (rule.type === 'external' && !rule.caller_identity_id)
      errors[field('caller_identity_id')] = ['The caller identity id field is required when type is external.'];
    if (rule.type === 'internal' && rule.caller_identity_id)
      errors[field('caller_identity_id')] = ['The caller identity id field must be empty when type is internal.'];
    if (rule.caller_identity_id) {
      const identity = await findCallerIdentity(this.ctx.db, tenant, rule.caller_identity_id);
      if (!identity || (identity.user_id !== null && identity.user_id !== user.id))
        errors[field('caller_identity_id')] ??= ['The selected caller identity id is invalid.'];
    }
    if (rule.extension_id) {
      const extension = await findExtension(this.ctx.db, tenant, rule.extension_id);
      if (!extension || extension.user_id !== user.id) errors[field('extension_id')] = ['The selected extension id is invalid.'];
    }
    return errors;
  }

  private async load(tenant: Tenant, userId: string, id: string): Promise<DndRow> {
    const row = await findDnd(this.ctx.db, tenant, userId, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  async list(tenant: Tenant, principal: Principal, userId: string, type?: string): Promise<DndRow[]> {
    const user = await this.owner(tenant, principal, userId, false);
    return listDnds(this.ctx.db, tenant, user.id, type);
  }

  /** One rule, readable as the list is (no allow_dnd needed). */
  async get(tenant: Tenant, principal: Principal, userId: string, id: string): Promise<DndRow> {
    const user = await this.owner(tenant, principal, userId, false);
    return this.load(tenant, user.id, id);
  }

  async create(tenant: Tenant, principal: Principal, userId: string, body: Static<typeof CreateDndBody>): Promise<DndRow> {
    const user = await this.owner(tenant, principal, userId, true);
    const rule: Rule = { type: body.type, caller_identity_id: body.caller_identity_id ?? null, extension_id: body.extension_id ?? null, status: body.status };
    const errors = await this.check(tenant, user, rule);
    if (Object.keys(errors).length) throw new ValidationFailed(errors);
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await this.ctx.db.transaction().execute(async (trx) => {
      await guardUnique(DUPLICATE, () => insertDnd(trx, newDndRow(tenant, user.id, id, rule, now)));
      await publishDndChanged(this.ctx, trx, tenant, user.id);
    });
    return this.load(tenant, user.id, id);
  }

  /** Sets the status of each target, creating the rule when it does not exist yet; all or nothing. */
  async bulk(tenant: Tenant, principal: Principal, userId: string, body: Static<typeof BulkDndBody>): Promise<Array<{ id: string; status: boolean }>> {
    const user = await this.owner(tenant, principal, userId, true);
    const rules: Rule[] = body.dnds.map((d) => ({ type: d.type, caller_identity_id: d.caller_identity_id ?? null, extension_id: null, status: d.status }));
    const errors: FieldErrors = {};
    for (const [index, rule] of rules.entries()) Object.assign(errors, await this.check(tenant, user, rule, `dnds.${index}.`));
    if (Object.keys(errors).length) throw new ValidationFailed(errors);
    const now = this.ctx.clock.now().toISOString();
    return this.ctx.db.transaction().execute(async (trx) => {
      const out: Array<{ id: string; status: boolean }> = [];
      for (const rule of rules) {
        const existing = await findDndByKey(trx, tenant, user.id, ruleKey(rule));
        if (existing) {
          await updateDnd(trx, tenant, existing.id, { status: toFlag(rule.status), updated_at: now });
          out.push({ id: existing.id, status: rule.status });
        } else {
          const id = randomUUID();
          await insertDnd(trx, newDndRow(tenant, user.id, id, rule, now));
          out.push({ id, status: rule.status });
        }
      }
      await publishDndChanged(this.ctx, trx, tenant, user.id);
      return out;
    });
  }

  /** PUT: the rule becomes exactly the body; omitted fields take their defaults. */
  async replace(tenant: Tenant, principal: Principal, userId: string, id: string, body: Static<typeof ReplaceDndBody>): Promise<DndRow> {
    const user = await this.owner(tenant, principal, userId, true);
    await this.load(tenant, user.id, id);
    const rule: Rule = {
      type: body.type ?? 'internal',
      caller_identity_id: body.caller_identity_id ?? null,
      extension_id: body.extension_id ?? null,
      status: body.status,
    };
    const errors = await this.check(tenant, user, rule);
    if (Object.keys(errors).length) throw new ValidationFailed(errors);
    await this.ctx.db.transaction().execute(async (trx) => {
      await guardUnique(DUPLICATE, () =>
        updateDnd(trx, tenant, id, { rule_key: ruleKey(rule), ...rule, status: toFlag(rule.status), updated_at: this.ctx.clock.now().toISOString() }),
      );
      await publishDndChanged(this.ctx, trx, tenant, user.id);
    });
    return this.load(tenant, user.id, id);
  }

  async delete(tenant: Tenant, principal: Principal, userId: string, id: string): Promise<void> {
    const user = await this.owner(tenant, principal, userId, true);
    await this.load(tenant, user.id, id);
    await this.ctx.db.transaction().execute(async (trx) => {
      await deleteDnd(trx, tenant, id);
      await publishDndChanged(this.ctx, trx, tenant, user.id);
    });
  }
}

/** The stored row of a new rule (create and bulk write the same). */
function newDndRow(tenant: Tenant, userId: string, id: string, rule: Rule, now: string) {
  return { id, pbx_id: tenant.pbxId, user_id: userId, rule_key: ruleKey(rule), ...rule, status: toFlag(rule.status), created_at: now, updated_at: now };
}
