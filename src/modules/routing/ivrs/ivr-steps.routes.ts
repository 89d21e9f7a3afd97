import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../http/resource-routes.js';
import type { AppContext } from '../../../platform/context.js';
import { ROUTING_MANAGE, ROUTING_READ } from '../shared/access.js';
import { IVR_STEPS_DOCS } from './ivr-steps.docs.js';
import { CreateIvrStepBody, IvrStep, IvrStepInclude, IvrStepListQuery, IvrStepParams, IvrStepsParams, UpdateIvrStepBody } from './ivr-steps.schemas.js';
import { IvrStepsService, type IvrStepRow } from './ivr-steps.service.js';

/** The steps of an IVR menu, nested under it: `/ivrs/{ivr}/steps`. A deleted IVR's steps are 404. */
export function registerIvrStepRoutes(app: FastifyInstance, ctx: AppContext): void {
  const service = new IvrStepsService(ctx);
  const steps = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['IVRs'],
    docs: IVR_STEPS_DOCS,
    schema: IvrStep,
    present: (rows: IvrStepRow[], { call, include }) => service.present(call.tenant, rows, include),
  });

  steps.list('/ivrs/:ivr/steps', {
    auth: ROUTING_READ,
    operationId: 'listIvrSteps',
    params: IvrStepsParams,
    querystring: IvrStepListQuery,
    defaultSort: [{ field: 'option', direction: 'asc' }],
    fetch: ({ tenant, params, query }, { sort, page }) =>
      service.list(tenant, params.ivr, { option: query['filter[option]'], trashed: query['filter[trashed]'] }, sort, page),
  });
  steps.create('/ivrs/:ivr/steps', {
    auth: ROUTING_MANAGE,
    operationId: 'createIvrStep',
    params: IvrStepsParams,
    body: CreateIvrStepBody,
    run: ({ tenant, params, body }) => service.create(tenant, params.ivr, body),
  });
  steps.read('/ivrs/:ivr/steps/:step', {
    auth: ROUTING_READ,
    operationId: 'getIvrStep',
    params: IvrStepParams,
    querystring: IvrStepInclude,
    load: ({ tenant, params }) => service.get(tenant, params.ivr, params.step),
  });
  steps.update('/ivrs/:ivr/steps/:step', {
    auth: ROUTING_MANAGE,
    operationId: 'updateIvrStep',
    params: IvrStepParams,
    body: UpdateIvrStepBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.ivr, params.step, body),
  });
  steps.delete('/ivrs/:ivr/steps/:step', {
    auth: ROUTING_MANAGE,
    operationId: 'deleteIvrStep',
    params: IvrStepParams,
    run: ({ tenant, params }) => service.delete(tenant, params.ivr, params.step),
  });
  steps.restore('/ivrs/:ivr/steps/:step/restore', {
    auth: ROUTING_MANAGE,
    operationId: 'restoreIvrStep',
    params: IvrStepParams,
    run: ({ tenant, params }) => service.restore(tenant, params.ivr, params.step),
  });
}
