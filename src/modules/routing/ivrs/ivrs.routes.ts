import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { principalOf } from '../../../platform/auth/auth-plugin.js';
import type { AppContext } from '../../../platform/context.js';
import { tenantOf } from '../../../platform/tenancy.js';
import { ROUTING_MANAGE, ROUTING_READ } from '../shared/access.js';
import { registerIvrStepRoutes } from './ivr-steps.routes.js';
import { CreateIvrBody, Ivr, IvrInclude, IvrListQuery, IvrParams, UpdateIvrBody } from './ivrs.schemas.js';
import { IvrsService, type IvrRow } from './ivrs.service.js';

const TAGS = ['IVRs'];

/** IVR menus (`/ivrs`) and their steps (`/ivrs/{ivr}/steps`). */
export async function ivrRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new IvrsService(ctx);
  const ivrs = resourceRoutes(app, ctx.config.baseUrl, {
    tags: TAGS,
    schema: Ivr,
    present: (rows: IvrRow[], { call, include }) => service.present(call.tenant, rows, include),
  });
  const includes =
    '`include`: announcement, musicOnHold (sound-file summaries), steps (always there; accepted), steps.target (each step’s call flow or IVR `{id, name, type}`, null when gone).';

  ivrs.list('/ivrs', {
    auth: ROUTING_READ,
    operationId: 'listIvrs',
    summary: 'IVR menus of the PBX',
    description: `Any user of the PBX, its PBX key, an integration key with call-routing. \`search\` matches the name; sorted by name unless \`sort\` says otherwise; \`filter[trashed]\` (without, with, only). ${includes}`,
    querystring: IvrListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) => service.list(tenant, { search: query.search, trashed: query['filter[trashed]'] }, sort, page),
  });
  ivrs.create('/ivrs', {
    auth: ROUTING_MANAGE,
    operationId: 'createIvr',
    summary: 'Create an IVR menu (administrators)',
    description:
      'pbx_id must be the caller’s PBX (else 422). announcement: a live sound file of the PBX of type announcement; musicOnHold: of type music. ' +
      'Defaults: default_action hangup, announcement_language null (Auto), timeout_seconds 5, max_repeats 2. Steps are added under /ivrs/{ivr}/steps.',
    body: CreateIvrBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  ivrs.read('/ivrs/:ivr', {
    auth: ROUTING_READ,
    operationId: 'getIvr',
    summary: 'One IVR menu with its steps',
    description: `Any user of the PBX, its PBX key, or an integration key with the call-routing scope. A deleted IVR, or another tenant's, is 404 (list it with filter[trashed]). ${includes}`,
    params: IvrParams,
    querystring: IvrInclude,
    load: ({ tenant, params }) => service.get(tenant, params.ivr),
  });
  ivrs.update('/ivrs/:ivr', {
    auth: ROUTING_MANAGE,
    operationId: 'updateIvr',
    summary: 'Change an IVR menu (administrators)',
    description: 'The fields of the creation, all optional, with the same limits; pbx_id, when sent, must still be the caller’s PBX.',
    params: IvrParams,
    body: UpdateIvrBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.ivr, body),
  });
  // Explicit, for its 409: resourceRoutes' delete documents 204 only.
  app.route({
    method: 'DELETE',
    url: '/ivrs/:ivr',
    config: { auth: ROUTING_MANAGE },
    schema: {
      tags: TAGS,
      operationId: 'deleteIvr',
      summary: 'Delete an IVR menu (soft; restorable)',
      description:
        'Administrators of the PBX only. Refused with 409 `{message, used_by}` while steps of other IVRs, call-flow nodes, queue overflows or phone numbers send calls to it.',
      params: IvrParams,
      response: { 204: Type.Null(), 409: { $ref: 'InUseError#' } },
    },
    handler: async (request, reply) => {
      const { ivr } = request.params as { ivr: string };
      await service.delete(tenantOf(principalOf(request)), ivr);
      return reply.code(204).send(null);
    },
  });
  ivrs.restore('/ivrs/:ivr/restore', {
    auth: ROUTING_MANAGE,
    operationId: 'restoreIvr',
    summary: 'Restore a deleted IVR menu with its steps',
    description:
      'Administrators of the PBX only. 422 when its announcement or music on hold, or the target of one of its steps (steps.{option}.target_id), is gone: restore those first.',
    params: IvrParams,
    run: ({ tenant, params }) => service.restore(tenant, params.ivr),
  });

  registerIvrStepRoutes(app, ctx);
}
