import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { ResponseCache } from '../../../platform/cache/response-cache.js';
import { operationRoutes } from '../../../http/resource-routes.js';
import { ME_DOCS } from './me.docs.js';
import { presentProfile, presentUserRecord } from './me.presenter.js';
import { MeService } from './me.service.js';
import { Profile, ProfileResponse, UserRecord } from './me.schemas.js';

const USER = { user: true } as const;

export async function meRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.addSchema(Profile);
  app.addSchema(UserRecord);
  const service = new MeService(ctx);
  const { route } = operationRoutes(app, { tags: ['Login and identity'], docs: ME_DOCS });

  // Apps call /me on every start and resume; the profile changes only with its tenant's data.
  const profiles = new ResponseCache(ctx, 10_000);
  route('/me', {
    method: 'GET',
    auth: USER,
    operationId: 'getProfile',
    response: { 200: ProfileResponse },
    handle: ({ tenant, user, reply }) =>
      profiles.serve(reply, user.userId, tenant.pbxId, async () => ({
        message: 'Authenticated user profile.',
        data: presentProfile(await service.profile(tenant, user.userId)),
      })),
  });

  route('/user', {
    method: 'GET',
    auth: USER,
    operationId: 'getUser',
    response: { 200: Type.Ref(UserRecord) },
    handle: async ({ tenant, user }) => presentUserRecord(await service.userRecord(tenant, user.userId)),
  });
}
