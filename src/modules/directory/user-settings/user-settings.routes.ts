import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { USER_SETTINGS_TAGS } from '../shared/tags.js';
import type { AppContext } from '../../../platform/context.js';
import { principalOf, tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { NotFound, ValidationFailed } from '../../../platform/errors.js';
import { DataEnvelope } from '../../../http/schema.js';
import { targetUser } from '../shared/access.js';
import { UserParams } from '../users/users.schemas.js';
import { deleteUserSetting, findUserSetting, listUserSettings, upsertUserSetting } from './user-settings.queries.js';
import { SaveUserSettingBody, UserSetting, UserSettingParams } from './user-settings.schemas.js';

const tags = USER_SETTINGS_TAGS;
const AUTH = { auth: { user: true, pbx: true } } as const;
const NOT_FOUND = 'User setting not found.';

/** `settings` is stored as sent, but only when it is a JSON document. */
function assertJson(settings: string): void {
  try {
    JSON.parse(settings);
  } catch {
    throw ValidationFailed.field('settings', 'The settings field must be a valid JSON string.');
  }
}

export async function userSettingRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.addSchema(UserSetting);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const one = DataEnvelope(Type.Ref(UserSetting));

  r.post('/users/:user/user-settings', {
    config: AUTH,
    schema: { tags, operationId: 'saveUserSetting', summary: 'Save a settings document of a user (replaces the one of the same type)', params: UserParams, body: SaveUserSettingBody, response: { 200: one } },
    handler: async (request) => {
      const tenant = tenantOfRequest(request);
      const user = await targetUser(ctx.db, tenant, principalOf(request), request.params.user);
      assertJson(request.body.settings);
      await upsertUserSetting(ctx.db, { id: randomUUID(), pbx_id: tenant.pbxId, user_id: user.id, type: request.body.type, settings: request.body.settings, now: ctx.clock.now().toISOString() });
      return { data: { type: request.body.type, settings: request.body.settings } };
    },
  });

  r.get('/users/:user/user-settings', {
    config: AUTH,
    schema: { tags, operationId: 'listUserSettings', summary: 'Every settings document of a user', params: UserParams, response: { 200: DataEnvelope(Type.Array(Type.Ref(UserSetting))) } },
    handler: async (request) => {
      const tenant = tenantOfRequest(request);
      const user = await targetUser(ctx.db, tenant, principalOf(request), request.params.user);
      return { data: await listUserSettings(ctx.db, tenant, user.id) };
    },
  });

  r.get('/users/:user/user-settings/:type', {
    config: AUTH,
    schema: { tags, operationId: 'getUserSetting', summary: 'One settings document of a user', params: UserSettingParams, response: { 200: one } },
    handler: async (request) => {
      const tenant = tenantOfRequest(request);
      const user = await targetUser(ctx.db, tenant, principalOf(request), request.params.user);
      const row = await findUserSetting(ctx.db, tenant, user.id, request.params.type);
      if (!row) throw new NotFound(NOT_FOUND);
      return { data: row };
    },
  });

  r.delete('/users/:user/user-settings/:type', {
    config: AUTH,
    schema: { tags, operationId: 'deleteUserSetting', summary: 'Delete a settings document of a user', params: UserSettingParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      const tenant = tenantOfRequest(request);
      const user = await targetUser(ctx.db, tenant, principalOf(request), request.params.user);
      if ((await deleteUserSetting(ctx.db, tenant, user.id, request.params.type)) === 0) throw new NotFound(NOT_FOUND);
      return reply.code(204).send(null);
    },
  });
}
