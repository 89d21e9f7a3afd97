import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { operationRoutes } from '../../../http/resource-routes.js';
import { DataEnvelope } from '../../../http/schema.js';
import { EngineErrorBody } from '../engine/pbx-engine.schemas.js';
import { CALLS_DOCS } from './calls.docs.js';
import { CallsService } from './calls.service.js';
import { CallParams, NewCallBody, NewCallHeaders, NewCallQuery, NewCallResponse, PlacedCall } from './calls.schemas.js';

const USER = { user: true } as const;

/** Placing a call as the signed-in user, and following it. */
export async function originationRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new CallsService(ctx);
  const { route } = operationRoutes(app, { tags: ['Calls'], docs: CALLS_DOCS });

  // The engine's failures answer with their own status. A retry with the same Idempotency-Key
  // replays a success or a time-out (the call may have been placed); any other answer placed
  // nothing and frees the key.
  route('/calls/new', {
    method: 'POST',
    auth: USER,
    operationId: 'placeCall',
    idempotent: { keep: (status) => status === 200 || status === 504 },
    headers: NewCallHeaders,
    querystring: NewCallQuery,
    body: NewCallBody,
    response: { 200: NewCallResponse, 409: { $ref: 'MessageError#' }, 502: EngineErrorBody, 503: EngineErrorBody, 504: EngineErrorBody },
    handle: async ({ tenant, user, query, body, reply }) => {
      const answer = await service.placeAnswer(tenant, user, query, body);
      reply.code(answer.status);
      return answer.body;
    },
  });

  app.addSchema(PlacedCall);
  route('/calls/:id', {
    method: 'GET',
    auth: USER,
    operationId: 'getCall',
    params: CallParams,
    response: { 200: DataEnvelope(Type.Ref(PlacedCall)), 404: { $ref: 'NotFoundError#' } },
    handle: async ({ tenant, user, params }) => ({ data: await service.read(tenant, user, params.id) }),
  });
}
