import { randomUUID } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import { NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { targetUser } from '../shared/access.js';
import { deleteUserSetting, findUserSetting, listUserSettings, upsertUserSetting } from './user-settings.queries.js';
import type { SaveUserSettingBody, UserSetting } from './user-settings.schemas.js';

export type UserSettingView = Static<typeof UserSetting>;
const NOT_FOUND = 'User setting not found.';

/** `settings` is stored as sent, but only when it is a JSON document. */
function assertJson(settings: string): void {
  try {
    JSON.parse(settings);
  } catch {
    throw ValidationFailed.field('settings', 'The settings field must be a valid JSON string.');
  }
}

/** A user's settings documents, one per type (the clients' own preferences, opaque to the PBX). */
export class UserSettingsService {
  constructor(private readonly ctx: AppContext) {}

  async save(tenant: Tenant, principal: Principal, userId: string, body: Static<typeof SaveUserSettingBody>): Promise<UserSettingView> {
    const user = await targetUser(this.ctx.db, tenant, principal, userId);
    assertJson(body.settings);
    await upsertUserSetting(this.ctx.db, {
      id: randomUUID(),
      pbx_id: tenant.pbxId,
      user_id: user.id,
      type: body.type,
      settings: body.settings,
      now: this.ctx.clock.now().toISOString(),
    });
    return { type: body.type, settings: body.settings };
  }

  async list(tenant: Tenant, principal: Principal, userId: string): Promise<UserSettingView[]> {
    const user = await targetUser(this.ctx.db, tenant, principal, userId);
    return listUserSettings(this.ctx.db, tenant, user.id);
  }

  async get(tenant: Tenant, principal: Principal, userId: string, type: string): Promise<UserSettingView> {
    const user = await targetUser(this.ctx.db, tenant, principal, userId);
    const row = await findUserSetting(this.ctx.db, tenant, user.id, type);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  async delete(tenant: Tenant, principal: Principal, userId: string, type: string): Promise<void> {
    const user = await targetUser(this.ctx.db, tenant, principal, userId);
    if ((await deleteUserSetting(this.ctx.db, tenant, user.id, type)) === 0) throw new NotFound(NOT_FOUND);
  }
}
