import { randomUUID } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import { NotFound } from '../../../platform/errors.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import { perUserFields } from '../../../http/principal-fields.js';
import { restore, softDelete } from '../../../platform/soft-delete.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { targetUser, toFlag } from '../shared/access.js';
import { lockReferences, refuseWhileUsed } from '../../../platform/references.js';
import { guardUnique } from '../../../platform/unique.js';
import { withNextVoipId } from '../shared/db-helpers.js';
import { assertTenantUser, userSummaries } from '../shared/user-summary.js';
import { sipDevicesOfExtensions } from '../sip-devices/sip-devices.queries.js';
import { presentSipDevice } from '../sip-devices/sip-devices.presenter.js';
import { groupsOfUsers } from '../user-groups/user-groups.service.js';
import { presentUserGroup } from '../user-groups/user-groups.presenter.js';
import { presentExtension } from './extensions.presenter.js';
import type { CreateExtensionBody, Extension, UpdateExtensionBody } from './extensions.schemas.js';
import {
  extensionsOfUsers,
  favoriteExtensionIds,
  findExtension,
  insertExtension,
  listExtensions,
  setFavorite,
  updateExtension,
  type ExtensionFilters,
  type ExtensionRow,
} from './extensions.queries.js';

export type { ExtensionRow } from './extensions.queries.js';

type ExtensionView = Static<typeof Extension>;

const NOT_FOUND = 'Extension not found.';
const NUMBER_TAKEN = [{ match: 'number', field: 'number', message: 'The number has already been taken in this PBX.' }];

/** Extensions of a PBX: numbers unique per PBX, optionally owned by a user, favourites per user. */
export class ExtensionsService {
  constructor(private readonly ctx: AppContext) {}

  /**
   * Rows as the contract shows them to this principal: `is_favorite` for users only; `user` (with
   * its `groups` for `user.groups`) and `sipDevice` when asked.
   */
  async present(tenant: Tenant, principal: Principal, rows: ExtensionRow[], include: Set<string>): Promise<ExtensionView[]> {
    const ids = rows.map((row) => row.id);
    const ownerIds = rows.flatMap((row) => (row.user_id ? [row.user_id] : []));
    const [favorites, users, groups, devices] = await Promise.all([
      principal.kind === 'user' ? favoriteExtensionIds(this.ctx.db, principal.userId, ids) : new Set<string>(),
      include.has('user') ? userSummaries(this.ctx.db, tenant, ownerIds) : null,
      include.has('user.groups') ? groupsOfUsers(this.ctx.db, tenant, ownerIds) : null,
      include.has('sipDevice') ? sipDevicesOfExtensions(this.ctx.db, tenant, ids) : null,
    ]);
    const owner = (userId: string | null) => {
      const summary = userId ? users?.get(userId) : undefined;
      if (!summary) return null;
      return groups ? { ...summary, groups: (groups.get(summary.id) ?? []).map((group) => presentUserGroup(group, group.members)) } : summary;
    };
    // Logged in there by roaming first, else the oldest device whose home extension it is.
    const deviceOf = (id: string) => devices?.find((device) => device.roaming_extension_id === id) ?? devices?.find((device) => device.extension_id === id);
    return rows.map((row) => {
      const device = devices ? deviceOf(row.id) : undefined;
      return {
        ...presentExtension(row),
        ...perUserFields(principal, () => ({ is_favorite: favorites.has(row.id) })),
        ...(users ? { user: owner(row.user_id) } : {}),
        ...(devices ? { sipDevice: device ? presentSipDevice(device) : null } : {}),
      };
    });
  }

  /** The live extensions of one user by number: the user itself, or an administrator or the PBX for any user of the PBX. */
  async ofUser(tenant: Tenant, principal: Principal, userId: string): Promise<ExtensionRow[]> {
    const user = await targetUser(this.ctx.db, tenant, principal, userId);
    return extensionsOfUsers(this.ctx.db, tenant, [user.id]);
  }

  list(tenant: Tenant, filters: ExtensionFilters, sort: SortTerm[], page: PageRequest) {
    return listExtensions(this.ctx.db, tenant, filters, sort, page);
  }

  async get(tenant: Tenant, id: string, options: { withTrashed?: boolean } = {}): Promise<ExtensionRow> {
    const row = await findExtension(this.ctx.db, tenant, id, options);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  async create(tenant: Tenant, body: Static<typeof CreateExtensionBody>): Promise<ExtensionRow> {
    if (body.user_id) await assertTenantUser(this.ctx.db, tenant, body.user_id);
    const now = this.ctx.clock.now().toISOString();
    const id = randomUUID();
    await guardUnique(NUMBER_TAKEN, () =>
      withNextVoipId(this.ctx.db, 'extensions', tenant.pbxId, (voipId) =>
        insertExtension(this.ctx.db, {
          id,
          pbx_id: tenant.pbxId,
          voip_id: voipId,
          number: body.number,
          name: body.name ?? '',
          user_id: body.user_id ?? null,
          voicemail_enabled: toFlag(body.voicemail_enabled ?? true),
          created_at: now,
          updated_at: now,
        }),
      ),
    );
    return this.get(tenant, id);
  }

  async update(tenant: Tenant, id: string, body: Static<typeof UpdateExtensionBody>): Promise<ExtensionRow> {
    await this.get(tenant, id);
    if (body.user_id) await assertTenantUser(this.ctx.db, tenant, body.user_id);
    await guardUnique(NUMBER_TAKEN, () =>
      updateExtension(this.ctx.db, tenant, id, {
        ...(body.number !== undefined ? { number: body.number } : {}),
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.user_id !== undefined ? { user_id: body.user_id } : {}),
        ...(body.voicemail_enabled !== undefined ? { voicemail_enabled: toFlag(body.voicemail_enabled) } : {}),
        updated_at: this.ctx.clock.now().toISOString(),
      }),
    );
    return this.get(tenant, id);
  }

  /** Refused (409 with the list) while phone numbers, call flows or queues ring the extension. */
  delete(tenant: Tenant, id: string): Promise<void> {
    return this.ctx.db.transaction().execute(async (trx) => {
      await lockReferences(trx, this.ctx.dialect, tenant);
      await refuseWhileUsed(trx, tenant, 'extension', id, 'extension');
      await softDelete(trx, this.ctx.clock, 'extensions', tenant, id, NOT_FOUND);
    });
  }

  async restore(tenant: Tenant, id: string): Promise<ExtensionRow> {
    await restore(this.ctx.db, this.ctx.clock, 'extensions', tenant, id, NOT_FOUND);
    return this.get(tenant, id);
  }

  async favorite(tenant: Tenant, userId: string, id: string, favorite: boolean): Promise<void> {
    await this.get(tenant, id);
    await setFavorite(this.ctx.db, userId, id, favorite, this.ctx.clock.now().toISOString());
  }
}
