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
    description:
      'Any user of the PBX and its PBX key. ' +
      'A user who is not an administrator sees only the identities it may present (its own and the PBX-wide ones, `user_id` null), and its `filter[trashed]` is ignored; administrators and the PBX key see all. ' +
      '`search` matches name and external caller number; `filter[user_id]` narrows the page; sorted by name unless `sort` says otherwise.',
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
    description:
      'Administrators of the PBX and its PBX key. ' +
      '`phone_number_id` must be a live phone number of the PBX (422); `external_caller_number` defaults to that root number, and when sent is read with the PBX country as default region and stored in E.164 (422 if unreadable). ' +
      '`user_id` null (default) lets every user present the identity, otherwise it must be a live user of the PBX (422). ' +
      'The PBX engine id (`voip_id`) is assigned by the server.',
    body: CreateCallerIdentityBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  identities.read('/caller-identities/:callerIdentity', {
    auth: READ,
    operationId: 'getCallerIdentity',
    summary: 'One caller identity',
    description:
      'Any user of the PBX and its PBX key; a user who is not an administrator gets 403 for another user’s personal identity. ' +
      'A deleted identity, or another PBX’s, is 404.',
    params: CallerIdentityParams,
    load: ({ tenant, principal, params }) => service.getFor(tenant, principal, params.callerIdentity),
  });
  identities.update('/caller-identities/:callerIdentity', {
    auth: MANAGE,
    operationId: 'updateCallerIdentity',
    summary: 'Change a caller identity',
    description:
      'Administrators of the PBX and its PBX key. ' +
      'Only the fields sent change, with the rules of the creation; a new `phone_number_id` without `external_caller_number` also resets the presented number to the new root number. ' +
      '`is_default` is stored as sent; other identities keep theirs. A deleted identity is 404.',
    params: CallerIdentityParams,
    body: UpdateCallerIdentityBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.callerIdentity, body),
  });
  identities.delete('/caller-identities/:callerIdentity', {
    auth: MANAGE,
    operationId: 'deleteCallerIdentity',
    summary: 'Delete a caller identity (soft; restorable)',
    description:
      'Administrators of the PBX and its PBX key. ' +
      'Soft delete: the identity leaves lists and reads (404) and comes back with POST /caller-identities/{callerIdentity}/restore.',
    params: CallerIdentityParams,
    run: ({ tenant, params }) => service.delete(tenant, params.callerIdentity),
  });
  identities.restore('/caller-identities/:callerIdentity/restore', {
    auth: MANAGE,
    operationId: 'restoreCallerIdentity',
    summary: 'Restore a deleted caller identity',
    description: 'Administrators of the PBX and its PBX key. Clears deleted_at and answers the identity; one that is not deleted, or another PBX’s, is 404.',
    params: CallerIdentityParams,
    run: ({ tenant, params }) => service.restore(tenant, params.callerIdentity),
  });

  identities.all('/users/:user/caller-identities', {
    auth: READ,
    operationId: 'listUserCallerIdentities',
    summary: 'Caller identities one user may present',
    description:
      'Any user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'Answers `{data: [...]}` (not paginated): the live identities the user may present, its own and the PBX-wide ones. ' +
      'A deleted user, or another PBX’s, is 404.',
    params: UserParams,
    fetch: async ({ tenant, principal, params }) => {
      const user = await targetUser(ctx.db, tenant, principal, params.user);
      return (await callerIdentitiesOfUsers(ctx.db, tenant, [user.id])).get(user.id) ?? [];
    },
  });
}
