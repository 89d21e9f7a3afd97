import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { USER_SETTINGS_TAGS } from '../shared/tags.js';
import { UserParams } from '../users/users.schemas.js';
import { ForwardsService, presentForward, type ForwardRow } from './forwards.service.js';
import { CreateForwardBody, Forward, ForwardListQuery, ForwardParams, UpdateForwardBody } from './forwards.schemas.js';

const AUTH = { user: true, pbx: true } as const;

export async function forwardRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ForwardsService(ctx);
  const forwards = resourceRoutes(app, ctx.config.baseUrl, {
    tags: USER_SETTINGS_TAGS,
    schema: Forward,
    present: (rows: ForwardRow[]) => rows.map(presentForward),
  });

  forwards.all('/users/:user/forwards', {
    auth: AUTH,
    operationId: 'listForwards',
    summary: 'Call forwards of a user',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403); a deleted user, or another PBX’s, is 404. ' +
      'Answers `{data: [...]}` (not paginated) with the user’s forwards, narrowed by `filter[type]` and `filter[enabled]`. ' +
      'Reading needs no allow_call_forwarding permission.',
    params: UserParams,
    querystring: ForwardListQuery,
    fetch: ({ tenant, principal, params, query }) =>
      service.list(tenant, principal, params.user, { type: query['filter[type]'], enabled: query['filter[enabled]'] }),
  });
  forwards.create('/users/:user/forwards', {
    auth: AUTH,
    operationId: 'createForward',
    summary: 'Create a call forward (needs allow_call_forwarding)',
    description:
      'A user for itself, only with its allow_call_forwarding permission (403 otherwise); an administrator or the PBX key for any user of the PBX. ' +
      'One forward per type and user (a second is 422). ' +
      '`destination` is required for number (read with the PBX country as default region, stored in E.164) and extension (an extension number of the PBX), and must be empty for voicemail (422). ' +
      'Defaults: enabled, delay 20 seconds for no_answer and 0 otherwise.',
    params: UserParams,
    body: CreateForwardBody,
    run: ({ tenant, principal, params, body }) => service.create(tenant, principal, params.user, body),
  });
  forwards.update('/users/:user/forwards/:forward', {
    auth: AUTH,
    operationId: 'updateForward',
    summary: 'Change a call forward (only supplied fields)',
    description:
      'Who may: as for creating (allow_call_forwarding for a user acting itself). ' +
      'Only the fields sent change; a new destination_type or destination is checked as on creation, and a type another forward of the user already has is 422. ' +
      'A forward of another user than the one in the path is 404.',
    params: ForwardParams,
    body: UpdateForwardBody,
    run: ({ tenant, principal, params, body }) => service.update(tenant, principal, params.user, params.forward, body),
  });
  forwards.delete('/users/:user/forwards/:forward', {
    auth: AUTH,
    operationId: 'deleteForward',
    summary: 'Delete a call forward',
    description:
      'Who may: as for creating (allow_call_forwarding for a user acting itself). ' +
      'Removed for good (no restore); a forward of another user than the one in the path is 404.',
    params: ForwardParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user, params.forward),
  });
}
