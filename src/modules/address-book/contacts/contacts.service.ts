import { randomUUID } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { Forbidden, NotFound, ValidationFailed, type FieldErrors } from '../../../platform/errors.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import { restore, softDelete } from '../../../platform/soft-delete.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import { guardUnique } from '../../../platform/unique.js';
import { findPbx, type Tenant } from '../../../platform/tenancy.js';
import type { ContactNumberTable } from '../address-book.tables.js';
import type { ContactInput, HandlingStrategy } from './contacts.schemas.js';
import {
  addMark,
  contactsByNumber,
  deleteNumbersExcept,
  existingGroupIds,
  findContact,
  findUserInPbx,
  insertContactRow,
  insertNumberRows,
  listContacts,
  loadRelations,
  numbersOf,
  removeMark,
  replaceGroups,
  takenSpeedDials,
  updateContactRow,
  updateNumberRow,
  type ContactFilters,
  type ContactRow,
  type MarkTable,
} from './contacts.queries.js';
import { canBlock, canCreate, canEdit, canFavorite, canSee, contactActor, type ContactActor } from './contact.policy.js';
import { presentContact } from './contacts.presenter.js';
import { toE164 } from './phone.js';
import { existsInPbx } from '../../../platform/references.js';

export type { ContactRow };

/** The caller as the address book sees it: its principal, its tenant, and what it is to the contact policy. */
export interface ContactCaller {
  principal: Principal;
  tenant: Tenant;
  actor: ContactActor;
}

const CONTACT_NOT_FOUND = 'Contact not found.';
/** The unique index a contact write can break: a speed dial is unique per PBX. */
const SPEED_DIAL_TAKEN = [{ match: '', field: 'contactPhoneNumbers', message: 'The speed dial has already been taken.' }];

/** Which table each handling-strategy id must exist in. */
const HANDLING_TARGETS = {
  call_flow_id: { type: 'call_flow', table: 'call_flows' },
  extension_id: { type: 'extension', table: 'extensions' },
  user_id: { type: 'user', table: 'users' },
  sip_device_id: { type: 'sip_device', table: 'sip_devices' },
} as const;

export async function countryOf(db: Kysely<DB>, tenant: Tenant): Promise<string> {
  return (await findPbx(db, tenant.pbxId))?.country_code ?? 'LU';
}

export interface PreparedNumber {
  phone_number_raw: string;
  phone_number: string;
  label: string | null;
  type: string;
  speed_dial: string | null;
}

/**
 * Contacts, with numbers normalised to E.164, speed dials unique per PBX, private contacts
 * visible to their owner only, favorites and blocks per user.
 */
export class ContactsService {
  constructor(private readonly ctx: AppContext) {}

  /** Once per request (the routes' scope): a user token's user is read for its global-contacts right. */
  async callerOf(tenant: Tenant, principal: Principal): Promise<ContactCaller> {
    const user = principal.kind === 'user' ? await findUserInPbx(this.ctx.db, tenant, principal.userId) : undefined;
    return { principal, tenant, actor: contactActor(principal, user) };
  }

  async present(caller: ContactCaller, rows: ContactRow[], includeOwner = false) {
    const relations = await loadRelations(this.ctx.db, rows, caller.actor.userId);
    return rows.map((row) => presentContact(row, relations, { principal: caller.principal, actor: caller.actor, includeOwner }));
  }

  list(caller: ContactCaller, filters: ContactFilters, sort: SortTerm[], page: PageRequest) {
    return listContacts(this.ctx.db, caller.tenant, caller.actor, filters, sort, page);
  }

  /** The contract's contact read: anything not visible is a 403 carrying a not-found message. */
  async read(caller: ContactCaller, id: string): Promise<ContactRow> {
    const row = await findContact(this.ctx.db, caller.tenant, id);
    if (!row || !canSee(caller.actor, row)) throw new Forbidden(CONTACT_NOT_FOUND);
    return row;
  }

  async get(caller: ContactCaller, id: string, trashed: 'without' | 'only' = 'without'): Promise<ContactRow> {
    const row = await findContact(this.ctx.db, caller.tenant, id, trashed);
    if (!row || !canSee(caller.actor, row)) throw new NotFound(CONTACT_NOT_FOUND);
    return row;
  }

  /** A visible contact the caller may edit (404 when it may not see it, 403 when it only may). */
  private async editable(caller: ContactCaller, id: string, trashed: 'without' | 'only' = 'without'): Promise<ContactRow> {
    const row = await this.get(caller, id, trashed);
    if (!canEdit(caller.actor, row)) throw new Forbidden('You may not edit this contact.');
    return row;
  }

  async create(caller: ContactCaller, body: ContactInput): Promise<ContactRow> {
    const prepared = await this.validate(caller, body, null);
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await this.write(async (trx) => {
      await insertContactRow(trx, { id, pbx_id: caller.tenant.pbxId, ...prepared.fields, created_at: now, updated_at: now });
      await insertNumberRows(
        trx,
        prepared.numbers.map((n, position) => ({
          ...n,
          id: randomUUID(),
          contact_id: id,
          pbx_id: caller.tenant.pbxId,
          position,
          created_at: now,
          updated_at: now,
        })),
      );
      await replaceGroups(trx, id, prepared.groups);
    });
    return this.get(caller, id);
  }

  /** PUT replaces the contact: fields left out are cleared, numbers and groups become the ones sent. */
  async update(caller: ContactCaller, id: string, body: ContactInput): Promise<ContactRow> {
    await this.editable(caller, id);
    const prepared = await this.validate(caller, body, id);
    const now = this.ctx.clock.now().toISOString();
    const tenant = caller.tenant;
    await this.write(async (trx) => {
      await updateContactRow(trx, tenant, id, { ...prepared.fields, updated_at: now });
      // Numbers already on the contact keep their id and created_at.
      const existing = new Map((await numbersOf(trx, id)).map((n) => [n.phone_number, n]));
      const kept: string[] = [];
      const fresh: Insertable<ContactNumberTable>[] = [];
      for (const [position, number] of prepared.numbers.entries()) {
        const match = existing.get(number.phone_number);
        if (match && !kept.includes(match.id)) {
          kept.push(match.id);
          await updateNumberRow(trx, match.id, { ...number, speed_dial: null, position, updated_at: now });
        } else fresh.push({ ...number, id: randomUUID(), contact_id: id, pbx_id: tenant.pbxId, position, created_at: now, updated_at: now });
      }
      await deleteNumbersExcept(trx, id, kept);
      // Speed dials are set after the old rows are gone, so moving one between numbers cannot collide.
      for (const [position, number] of prepared.numbers.entries()) {
        const match = existing.get(number.phone_number);
        if (match && kept.includes(match.id) && number.speed_dial) await updateNumberRow(trx, match.id, { speed_dial: number.speed_dial, position });
      }
      await insertNumberRows(trx, fresh);
      await replaceGroups(trx, id, prepared.groups);
    });
    return this.get(caller, id);
  }

  async remove(caller: ContactCaller, id: string): Promise<void> {
    await this.editable(caller, id);
    await softDelete(this.ctx.db, this.ctx.clock, 'contacts', caller.tenant, id, CONTACT_NOT_FOUND);
  }

  async restore(caller: ContactCaller, id: string): Promise<ContactRow> {
    await this.editable(caller, id, 'only');
    await restore(this.ctx.db, this.ctx.clock, 'contacts', caller.tenant, id, CONTACT_NOT_FOUND);
    return this.get(caller, id);
  }

  async setFavorite(caller: ContactCaller, id: string, favorite: boolean): Promise<ContactRow> {
    const row = await this.get(caller, id);
    if (!canFavorite(caller.actor, row)) throw new Forbidden('Favorites belong to users; use a user token.');
    await this.mark(caller, 'contact_favorites', id, favorite);
    return row;
  }

  /** Blocks for the caller only (`user`), or for the whole PBX (`global`, needs the global-contacts right). */
  async setBlocked(caller: ContactCaller, id: string, scope: 'user' | 'global', blocked: boolean): Promise<ContactRow> {
    const row = await this.get(caller, id);
    if (!canBlock(caller.actor, row, scope))
      throw scope === 'global'
        ? new Forbidden('You may not block contacts for the whole PBX.')
        : ValidationFailed.field('scope', 'An API key can only block globally.');
    if (scope === 'global')
      await updateContactRow(this.ctx.db, caller.tenant, id, { is_blocked_globally: blocked ? 1 : 0, updated_at: this.ctx.clock.now().toISOString() });
    else await this.mark(caller, 'contact_blocks', id, blocked);
    return this.get(caller, id);
  }

  /** Sets or clears the caller's own favorite or block, once the policy has allowed it (which it does for users only). */
  private async mark(caller: ContactCaller, table: MarkTable, contactId: string, on: boolean): Promise<void> {
    const userId = caller.actor.userId;
    if (userId === null) throw new Error(`${table}: the policy let an API key mark a contact`);
    if (on) await addMark(this.ctx.db, table, contactId, userId, this.ctx.clock.now().toISOString());
    else await removeMark(this.ctx.db, table, contactId, userId);
  }

  /** The contacts matching a calling number, for the PBX to show a caller name. */
  async lookup(caller: ContactCaller, number: string): Promise<{ e164: string; rows: ContactRow[] }> {
    const e164 = toE164(number, await countryOf(this.ctx.db, caller.tenant));
    if (!e164) throw ValidationFailed.field('number', 'The number field must be a valid phone number.');
    return { e164, rows: await contactsByNumber(this.ctx.db, caller.tenant, caller.actor, e164) };
  }

  private async write(work: (trx: Transaction<DB>) => Promise<void>): Promise<void> {
    await guardUnique(SPEED_DIAL_TAKEN, () => this.ctx.db.transaction().execute(work));
  }

  private async validate(caller: ContactCaller, body: ContactInput, contactId: string | null) {
    const { tenant, actor } = caller;
    const errors: FieldErrors = {};
    const fail = (field: string, message: string) => (errors[field] ??= []).push(message);

    // An owner the caller may not write is a field error, found with the others; a global contact it may not write, a 403 after them.
    const ownerId = body.private_owner_id ?? null;
    if (ownerId !== null && !canCreate(actor, ownerId))
      fail('private_owner_id', actor.userId === null ? 'API keys manage global contacts only.' : 'A contact can only be made private to yourself.');

    const country = await countryOf(this.ctx.db, tenant);
    const numbers: PreparedNumber[] = [];
    const seenDials = new Map<string, number>();
    for (const [i, n] of (body.contactPhoneNumbers ?? []).entries()) {
      const e164 = toE164(n.phone_number, country);
      if (!e164) fail(`contactPhoneNumbers.${i}.phone_number`, 'The phone number field must be a valid phone number.');
      const speedDial = n.speed_dial ?? null;
      if (speedDial) {
        if (seenDials.has(speedDial)) fail(`contactPhoneNumbers.${i}.speed_dial`, 'The speed dial field has a duplicate value.');
        seenDials.set(speedDial, i);
      }
      numbers.push({ phone_number_raw: n.phone_number, phone_number: e164 ?? '', label: n.label ?? null, type: n.type, speed_dial: speedDial });
    }
    const taken = await takenSpeedDials(this.ctx.db, tenant, [...seenDials.keys()], contactId);
    for (const dial of taken) fail(`contactPhoneNumbers.${seenDials.get(dial)}.speed_dial`, 'The speed dial has already been taken.');

    const groups = body.groups ?? [];
    const known = await existingGroupIds(this.ctx.db, tenant, groups);
    groups.forEach((id, i) => {
      if (!known.has(id)) fail(`groups.${i}`, `The selected groups.${i} is invalid.`);
    });

    const handling = await this.validateHandling(tenant, body.handling_strategy ?? null, fail);
    if (Object.keys(errors).length) throw new ValidationFailed(errors);
    if (ownerId === null && !canCreate(actor, null)) throw new Forbidden('You may not manage global contacts; set private_owner_id to your own id.');

    const email = body.email ?? null;
    return {
      numbers,
      groups,
      fields: {
        name1: body.name1,
        name2: body.name2 ?? null,
        email,
        email_normalized: email ? email.toLowerCase() : null,
        company_name: body.company_name ?? null,
        department: body.department ?? null,
        job_title: body.job_title ?? null,
        notes: body.notes ?? null,
        vip: body.vip ? 1 : 0,
        private_owner_id: ownerId,
        handling_strategy: handling ? JSON.stringify(handling) : null,
      },
    };
  }

  /** A handling strategy names the target its type needs; every id given must exist in the PBX. */
  private async validateHandling(tenant: Tenant, input: ContactInput['handling_strategy'] | null, fail: (field: string, message: string) => void) {
    if (!input) return null;
    const strategy: Static<typeof HandlingStrategy> = {
      type: input.type,
      call_flow_id: input.call_flow_id ?? null,
      extension_id: input.extension_id ?? null,
      user_id: input.user_id ?? null,
      sip_device_id: input.sip_device_id ?? null,
    };
    for (const [field, target] of Object.entries(HANDLING_TARGETS) as Array<
      [keyof typeof HANDLING_TARGETS, (typeof HANDLING_TARGETS)[keyof typeof HANDLING_TARGETS]]
    >) {
      const id = strategy[field];
      if (strategy.type === target.type && !id)
        fail(`handling_strategy.${field}`, `The handling strategy.${field.replace(/_/g, ' ')} field is required when type is ${target.type}.`);
      if (id && !(await existsInPbx(this.ctx.db, tenant, target.table, id)))
        fail(`handling_strategy.${field}`, `The selected handling strategy.${field.replace(/_/g, ' ')} is invalid.`);
    }
    return strategy;
  }
}
