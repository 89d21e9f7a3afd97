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
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403); a deleted user, or another PBX’s, is 404. ' +
      'Creates the document of this `type` or replaces the one the user already has. `settings` is stored as sent but must parse as JSON (422 otherwise). ' +
      'Answers 200 `{data: {type, settings}}`.',
    params: UserParams,
    body: SaveUserSettingBody,
    run: ({ tenant, principal, params, body }) => service.save(tenant, principal, params.user, body),
  });
  settings.all('/users/:user/user-settings', {
    auth: AUTH,
    operationId: 'listUserSettings',
    summary: 'Every settings document of a user',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'Answers `{data: [...]}` (not paginated): every settings document of the user, `{type, settings}`.',
    params: UserParams,
    fetch: ({ tenant, principal, params }) => service.list(tenant, principal, params.user),
  });
  settings.read('/users/:user/user-settings/:type', {
    auth: AUTH,
    operationId: 'getUserSetting',
    summary: 'One settings document of a user',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'Answers `{data: {type, settings}}`; a type the user has no document of is 404.',
    params: UserSettingParams,
    load: ({ tenant, principal, params }) => service.get(tenant, principal, params.user, params.type),
  });
  settings.delete('/users/:user/user-settings/:type', {
    auth: AUTH,
    operationId: 'deleteUserSetting',
    summary: 'Delete a settings document of a user',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'Removes the document for good; a type the user has no document of is 404.',
    params: UserSettingParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user, params.type),
  });
}
