import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../http/resource-routes.js';
import type { AppContext } from '../../../platform/context.js';
import { ROUTING_MANAGE, ROUTING_READ } from '../shared/access.js';
import { CreateIvrStepBody, IvrStep, IvrStepInclude, IvrStepListQuery, IvrStepParams, IvrStepsParams, UpdateIvrStepBody } from './ivr-steps.schemas.js';
import { IvrStepsService, type IvrStepRow } from './ivr-steps.service.js';

/** The steps of an IVR menu, nested under it: `/ivrs/{ivr}/steps`. A deleted IVR's steps are 404. */
export function registerIvrStepRoutes(app: FastifyInstance, ctx: AppContext): void {
  const service = new IvrStepsService(ctx);
  const steps = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['IVRs'],
    schema: IvrStep,
    present: (rows: IvrStepRow[], { call, include }) => service.present(call.tenant, rows, include),
  });

  steps.list('/ivrs/:ivr/steps', {
    auth: ROUTING_READ,
    operationId: 'listIvrSteps',
    summary: 'The steps of an IVR menu',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. By option (default, 0-9, *, #) unless `sort` says otherwise. `filter[option]`; `filter[trashed]` (without, with, only). `include=target`: each step’s call flow or IVR `{id, name, type}`, null when gone.',
    params: IvrStepsParams,
    querystring: IvrStepListQuery,
    defaultSort: [{ field: 'option', direction: 'asc' }],
    fetch: ({ tenant, params, query }, { sort, page }) =>
      service.list(tenant, params.ivr, { option: query['filter[option]'], trashed: query['filter[trashed]'] }, sort, page),
  });
  steps.create('/ivrs/:ivr/steps', {
    auth: ROUTING_MANAGE,
    operationId: 'createIvrStep',
    summary: 'Add a step (a key) to an IVR menu (administrators)',
    description:
      'option: default | 0-9 | * | #, one live step per key of the menu (else 422 "The option has already been taken."). ' +
      'target_type App\\Models\\CallFlow or App\\Models\\Ivr (menus nest) with target_id a live call flow or IVR of the PBX (else 422 on target_id).',
    params: IvrStepsParams,
    body: CreateIvrStepBody,
    run: ({ tenant, params, body }) => service.create(tenant, params.ivr, body),
  });
  steps.read('/ivrs/:ivr/steps/:step', {
    auth: ROUTING_READ,
    operationId: 'getIvrStep',
    summary: 'One step of an IVR menu',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. ' +
      'A deleted or foreign IVR, a step of another IVR, or a deleted step is 404. ' +
      '`include=target`: the step’s call flow or IVR `{id, name, type}`, null when gone.',
    params: IvrStepParams,
    querystring: IvrStepInclude,
    load: ({ tenant, params }) => service.get(tenant, params.ivr, params.step),
  });
  steps.update('/ivrs/:ivr/steps/:step', {
    auth: ROUTING_MANAGE,
    operationId: 'updateIvrStep',
    summary: 'Change a step of an IVR menu (administrators)',
    description: 'Changes the fields sent, with the rules of the creation; a new target_type alone is checked against the current target_id.',
    params: IvrStepParams,
    body: UpdateIvrStepBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.ivr, params.step, body),
  });
  steps.delete('/ivrs/:ivr/steps/:step', {
    auth: ROUTING_MANAGE,
    operationId: 'deleteIvrStep',
    summary: 'Delete a step (soft; its key is free again)',
    description:
      'Administrators of the PBX only. ' +
      'Soft delete: the step leaves the menu and its key is free for a new step; POST /ivrs/{ivr}/steps/{step}/restore brings it back while the key is still free. ' +
      'A deleted or foreign IVR, or a step that is not live in it, is 404.',
    params: IvrStepParams,
    run: ({ tenant, params }) => service.delete(tenant, params.ivr, params.step),
  });
  steps.restore('/ivrs/:ivr/steps/:step/restore', {
    auth: ROUTING_MANAGE,
    operationId: 'restoreIvrStep',
    summary: 'Restore a deleted step',
    description:
      'Administrators of the PBX only. 422 when its key has been given to another live step meanwhile (option) or its target is no longer a live call flow or IVR (target_id).',
    params: IvrStepParams,
    run: ({ tenant, params }) => service.restore(tenant, params.ivr, params.step),
  });
}
