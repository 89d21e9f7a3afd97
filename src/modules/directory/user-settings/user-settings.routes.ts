import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { USER_SETTINGS_TAGS } from '../shared/tags.js';
import { UserParams } from '../users/users.schemas.js';
import { UserSettingsService, type UserSettingView } from './user-settings.service.js';
import { SaveUserSettingBody, UserSetting, UserSettingParams } from './user-settings.schemas.js';

const AUTH = { user: true, pbx: true } as const;

export async function userSettingRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new UserSettingsService(ctx);
  const settings = resourceRoutes(app, ctx.config.baseUrl, { tags: USER_SETTINGS_TAGS, schema: UserSetting, present: (rows: UserSettingView[]) => rows });

  settings.action('/users/:user/user-settings', {
    method: 'POST',
    auth: AUTH,
    operationId: 'saveUserSetting',
    summary: 'Save a settings document of a user (replaces the one of the same type)',
    params: UserParams,
    body: SaveUserSettingBody,
    run: ({ tenant, principal, params, body }) => service.save(tenant, principal, params.user, body),
  });
  settings.all('/users/:user/user-settings', {
    auth: AUTH,
    operationId: 'listUserSettings',
    summary: 'Every settings document of a user',
    params: UserParams,
    fetch: ({ tenant, principal, params }) => service.list(tenant, principal, params.user),
  });
  settings.read('/users/:user/user-settings/:type', {
    auth: AUTH,
    operationId: 'getUserSetting',
    summary: 'One settings document of a user',
    params: UserSettingParams,
    load: ({ tenant, principal, params }) => service.get(tenant, principal, params.user, params.type),
  });
  settings.delete('/users/:user/user-settings/:type', {
    auth: AUTH,
    operationId: 'deleteUserSetting',
    summary: 'Delete a settings document of a user',
    params: UserSettingParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user, params.type),
  });
}
