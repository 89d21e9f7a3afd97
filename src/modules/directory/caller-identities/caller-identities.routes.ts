import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { isAdmin } from '../../../platform/auth/principal.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { targetUser } from '../shared/access.js';
import { UserParams } from '../users/users.schemas.js';
import { CallerIdentitiesService, callerIdentitiesOfUsers, presentCallerIdentity, type CallerIdentityRow } from './caller-identities.service.js';
import {
  CallerIdentity,
  CallerIdentityListQuery,
  CallerIdentityParams,
  CreateCallerIdentityBody,
  UpdateCallerIdentityBody,
} from './caller-identities.schemas.js';

const tags = ['Caller identities'];
const READ = { user: true, pbx: true } as const;
const MANAGE = { user: 'admin', pbx: true } as const;

export async function callerIdentityRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new CallerIdentitiesService(ctx);
  const identities = resourceRoutes(app, ctx.config.baseUrl, {
    tags,
    schema: CallerIdentity,
    present: (rows: CallerIdentityRow[]) => rows.map(presentCallerIdentity),
  });

  identities.list('/caller-identities', {
    auth: READ,
    operationId: 'listCallerIdentities',
    summary: 'Caller identities (a user sees those it may present)',
    querystring: CallerIdentityListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, principal, query }, { sort, page }) => {
      const restricted = principal.kind === 'user' && !isAdmin(principal);
      const filters = {
        search: query.search,
        userId: query['filter[user_id]'],
        availableTo: restricted ? principal.userId : undefined,
        trashed: restricted ? undefined : query['filter[trashed]'],
      };
      return service.list(tenant, filters, sort, page);
    },
  });
  identities.create('/caller-identities', {
    auth: MANAGE,
    operationId: 'createCallerIdentity',
    summary: 'Create a caller identity',
    body: CreateCallerIdentityBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  identities.read('/caller-identities/:callerIdentity', {
    auth: READ,
    operationId: 'getCallerIdentity',
    summary: 'One caller identity',
    params: CallerIdentityParams,
    load: ({ tenant, principal, params }) => service.getFor(tenant, principal, params.callerIdentity),
  });
  identities.update('/caller-identities/:callerIdentity', {
    auth: MANAGE,
    operationId: 'updateCallerIdentity',
    summary: 'Change a caller identity',
    params: CallerIdentityParams,
    body: UpdateCallerIdentityBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.callerIdentity, body),
  });
  identities.delete('/caller-identities/:callerIdentity', {
    auth: MANAGE,
    operationId: 'deleteCallerIdentity',
    summary: 'Delete a caller identity (soft; restorable)',
    params: CallerIdentityParams,
    run: ({ tenant, params }) => service.delete(tenant, params.callerIdentity),
  });
  identities.restore('/caller-identities/:callerIdentity/restore', {
    auth: MANAGE,
    operationId: 'restoreCallerIdentity',
    summary: 'Restore a deleted caller identity',
    params: CallerIdentityParams,
    run: ({ tenant, params }) => service.restore(tenant, params.callerIdentity),
  });

  identities.all('/users/:user/caller-identities', {
    auth: READ,
    operationId: 'listUserCallerIdentities',
    summary: 'Caller identities one user may present',
    params: UserParams,
    fetch: async ({ tenant, principal, params }) => {
      const user = await targetUser(ctx.db, tenant, principal, params.user);
      return (await callerIdentitiesOfUsers(ctx.db, tenant, [user.id])).get(user.id) ?? [];
    },
  });
}
