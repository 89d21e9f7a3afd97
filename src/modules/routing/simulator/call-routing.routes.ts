import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { operationRoutes } from '../../../http/resource-routes.js';
import { DataEnvelope } from '../../../http/schema.js';
import { RoutingValidation } from '../graph/graph.schemas.js';
import { ROUTING_READ } from '../shared/access.js';
import { SimulateBody, Simulation } from './simulator.schemas.js';
import { CALL_ROUTING_DOCS } from './call-routing.docs.js';
import { CallRoutingService } from './call-routing.service.js';

/** The routing graph's check and the route simulator: answers of their own, no resource item. */
export async function callRoutingRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new CallRoutingService(ctx);
  app.addSchema(RoutingValidation);
  app.addSchema(Simulation);
  const { route } = operationRoutes(app, { tags: ['Call routing'], docs: CALL_ROUTING_DOCS });

  route('/call-routing/validate', {
    method: 'POST',
    auth: ROUTING_READ,
    // Both answer from what they read and write nothing: the tenant's cached tokens and profiles stay.
    config: { keepsCaches: true },
    operationId: 'validateCallRouting',
    response: { 200: DataEnvelope(Type.Ref(RoutingValidation)) },
    handle: async ({ tenant }) => ({ data: await service.validate(tenant) }),
  });
  route('/call-routing/simulate', {
    method: 'POST',
    auth: ROUTING_READ,
    config: { keepsCaches: true },
    operationId: 'simulateCallRouting',
    body: SimulateBody,
    response: { 200: DataEnvelope(Type.Ref(Simulation)) },
    handle: async ({ tenant, body }) => ({ data: await service.simulate(tenant, body) }),
  });
}
