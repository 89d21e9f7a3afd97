import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { UserParams } from '../users/users.schemas.js';
import { CALLER_IDENTITIES_DOCS } from './caller-identities.docs.js';
import { presentCallerIdentity } from './caller-identities.presenter.js';
import { CallerIdentitiesService, type CallerIdentityRow } from './caller-identities.service.js';
import {
  CallerIdentity,
  CallerIdentityListQuery,
  CallerIdentityParams,
  CreateCallerIdentityBody,
  UpdateCallerIdentityBody,
} from './caller-identities.schemas.js';

const READ = { user: true, pbx: true } as const;
const MANAGE = { user: 'admin', pbx: true } as const;

export async function callerIdentityRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new CallerIdentitiesService(ctx);
  const identities = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Caller identities'],
    docs: CALLER_IDENTITIES_DOCS,
    schema: CallerIdentity,
    present: (rows: CallerIdentityRow[]) => rows.map(presentCallerIdentity),
  });

  identities.list('/caller-identities', {
    auth: READ,
    operationId: 'listCallerIdentities',
    querystring: CallerIdentityListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, principal, query }, { sort, page }) =>
      service.list(tenant, principal, { search: query.search, userId: query['filter[user_id]'], trashed: query['filter[trashed]'] }, sort, page),
  });
  identities.create('/caller-identities', {
    auth: MANAGE,
    operationId: 'createCallerIdentity',
    body: CreateCallerIdentityBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  identities.read('/caller-identities/:callerIdentity', {
    auth: READ,
    operationId: 'getCallerIdentity',
    params: CallerIdentityParams,
    load: ({ tenant, principal, params }) => service.getFor(tenant, principal, params.callerIdentity),
  });
  identities.update('/caller-identities/:callerIdentity', {
    auth: MANAGE,
    operationId: 'updateCallerIdentity',
    params: CallerIdentityParams,
    body: UpdateCallerIdentityBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.callerIdentity, body),
  });
  identities.delete('/caller-identities/:callerIdentity', {
    auth: MANAGE,
    operationId: 'deleteCallerIdentity',
    params: CallerIdentityParams,
    run: ({ tenant, params }) => service.delete(tenant, params.callerIdentity),
  });
  identities.restore('/caller-identities/:callerIdentity/restore', {
    auth: MANAGE,
    operationId: 'restoreCallerIdentity',
    params: CallerIdentityParams,
    run: ({ tenant, params }) => service.restore(tenant, params.callerIdentity),
  });

  identities.all('/users/:user/caller-identities', {
    auth: READ,
    operationId: 'listUserCallerIdentities',
    params: UserParams,
    fetch: ({ tenant, principal, params }) => service.ofUser(tenant, principal, params.user),
  });
}
