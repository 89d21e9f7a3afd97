import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { USER_SETTINGS_TAGS } from '../shared/tags.js';
import { UserParams } from '../users/users.schemas.js';
import { USER_SETTINGS_DOCS } from './user-settings.docs.js';
import { UserSettingsService, type UserSettingView } from './user-settings.service.js';
import { SaveUserSettingBody, UserSetting, UserSettingParams } from './user-settings.schemas.js';

const AUTH = { user: true, pbx: true } as const;

export async function userSettingRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new UserSettingsService(ctx);
  const settings = resourceRoutes(app, ctx.config.baseUrl, {
    tags: USER_SETTINGS_TAGS,
    docs: USER_SETTINGS_DOCS,
    schema: UserSetting,
    present: (rows: UserSettingView[]) => rows,
  });

  settings.action('/users/:user/user-settings', {
    method: 'POST',
    auth: AUTH,
    operationId: 'saveUserSetting',
    params: UserParams,
    body: SaveUserSettingBody,
    run: ({ tenant, principal, params, body }) => service.save(tenant, principal, params.user, body),
  });
  settings.all('/users/:user/user-settings', {
    auth: AUTH,
    operationId: 'listUserSettings',
    params: UserParams,
    fetch: ({ tenant, principal, params }) => service.list(tenant, principal, params.user),
  });
  settings.read('/users/:user/user-settings/:type', {
    auth: AUTH,
    operationId: 'getUserSetting',
    params: UserSettingParams,
    load: ({ tenant, principal, params }) => service.get(tenant, principal, params.user, params.type),
  });
  settings.delete('/users/:user/user-settings/:type', {
    auth: AUTH,
    operationId: 'deleteUserSetting',
    params: UserSettingParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user, params.type),
  });
}
