import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { Forbidden, NotFound, ValidationFailed, type FieldErrors } from '../../../platform/errors.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { guardUnique } from '../../../platform/unique.js';
import type { ContactGroupInput } from './contact-groups.schemas.js';
import { deleteGroup, findGroup, insertGroup, listGroups, liveUserIds, replaceGroupUsers, updateGroup } from './contact-groups.queries.js';
import { groupUsersOf, type GroupRow } from '../contacts/contacts.queries.js';
import { presentGroup } from '../contacts/contacts.presenter.js';
import type { ContactCaller } from '../contacts/contacts.service.js';
import { canManageGroups } from '../contacts/contact.policy.js';
import { existsInPbx } from '../../../platform/references.js';

export type { GroupRow };

const GROUP_NOT_FOUND = 'Contact group not found.';
/** Contact group names are unique per PBX. */
const NAME_TAKEN = [{ match: '', field: 'name', message: 'The name has already been taken.' }];
/** Each reference of a group and the table its id must exist in, within the PBX. */
const REFERENCES = {
  default_internal_call_flow_id: 'call_flows',
  default_external_call_flow_id: 'call_flows',
  extension_id_shown_outside_the_group: 'extensions',
  default_caller_identity_id: 'caller_identities',
} as const;

/** Contact groups are PBX-wide; managing them needs the global-contacts right. */
export class ContactGroupsService {
  constructor(private readonly ctx: AppContext) {}

  async present(rows: GroupRow[]) {
    const users = await groupUsersOf(
      this.ctx.db,
      rows.map((r) => r.id),
    );
    return rows.map((row) => presentGroup(row, users.get(row.id) ?? []));
  }

  list(caller: ContactCaller, search: string | undefined, sort: SortTerm[], page: PageRequest) {
    return listGroups(this.ctx.db, caller.tenant, search, sort, page);
  }

  async get(caller: ContactCaller, id: string): Promise<GroupRow> {
    const row = await findGroup(this.ctx.db, caller.tenant, id);
    if (!row) throw new NotFound(GROUP_NOT_FOUND);
    return row;
  }

  async create(caller: ContactCaller, body: ContactGroupInput): Promise<GroupRow> {
    this.assertManager(caller);
    const fields = await this.validate(caller.tenant, body);
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await this.write(async (trx) => {
      await insertGroup(trx, { id, pbx_id: caller.tenant.pbxId, ...fields, created_at: now, updated_at: now });
      await replaceGroupUsers(trx, id, body.users ?? []);
    });
    return this.get(caller, id);
  }

  async update(caller: ContactCaller, id: string, body: ContactGroupInput): Promise<GroupRow> {
    await this.get(caller, id);
    this.assertManager(caller);
    const fields = await this.validate(caller.tenant, body);
    await this.write(async (trx) => {
      await updateGroup(trx, caller.tenant, id, { ...fields, updated_at: this.ctx.clock.now().toISOString() });
      await replaceGroupUsers(trx, id, body.users ?? []);
    });
    return this.get(caller, id);
  }

  /** Deletes the group; its contacts stay, they only leave the group. */
  async remove(caller: ContactCaller, id: string): Promise<void> {
    await this.get(caller, id);
    this.assertManager(caller);
    await deleteGroup(this.ctx.db, caller.tenant, id);
  }

  private assertManager(caller: ContactCaller): void {
    if (!canManageGroups(caller.actor)) throw new Forbidden('You may not manage contact groups.');
  }

  private async write(work: (trx: Transaction<DB>) => Promise<void>) {
    await guardUnique(NAME_TAKEN, () => this.ctx.db.transaction().execute(work));
  }

  private async validate(tenant: Tenant, body: ContactGroupInput) {
    const errors: FieldErrors = {};
    for (const [field, table] of Object.entries(REFERENCES) as Array<[keyof typeof REFERENCES, string]>) {
      const id = body[field];
      if (id && !(await existsInPbx(this.ctx.db, tenant, table, id))) errors[field] = [`The selected ${field.replace(/_/g, ' ')} is invalid.`];
    }
    const users = body.users ?? [];
    const live = await liveUserIds(this.ctx.db, tenant, users);
    users.forEach((id, i) => {
      if (!live.has(id)) errors[`users.${i}`] = [`The selected users.${i} is invalid.`];
    });
    if (Object.keys(errors).length) throw new ValidationFailed(errors);
    return {
      name: body.name,
      description: body.description ?? null,
      default_internal_call_flow_id: body.default_internal_call_flow_id ?? null,
      default_external_call_flow_id: body.default_external_call_flow_id ?? null,
      extension_id_shown_outside_the_group: body.extension_id_shown_outside_the_group ?? null,
      default_caller_identity_id: body.default_caller_identity_id ?? null,
      external_uid: body.external_uid ?? null,
      allow_call_pickups: body.allow_call_pickups ? 1 : 0,
      allow_default_pbxes_outgoing_phone_numbers: body.allow_default_pbxes_outgoing_phone_numbers ? 1 : 0,
      display_tab_to_everyone_inside_voxbi: body.display_tab_to_everyone_inside_voxbi ? 1 : 0,
    };
  }
}
