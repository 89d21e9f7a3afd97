import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../platform/context.js';
import { tenantOfRequest, userPrincipalOf } from '../../../platform/auth/auth-plugin.js';
import { EngineErrorBody } from '../engine/pbx-engine.schemas.js';
import { CallsService } from './calls.service.js';
import { CallParams, NewCallBody, NewCallHeaders, NewCallQuery, NewCallResponse, PlacedCall } from './calls.schemas.js';
import { Type } from '@sinclair/typebox';
import { DataEnvelope } from '../../../http/schema.js';

const tags = ['Calls'];

export async function originationRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new CallsService(ctx);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post('/calls/new', {
    config: { auth: { user: true } },
    schema: {
      tags,
      operationId: 'placeCall',
      summary: 'Place an outbound call for the authenticated user',
      description:
        "Rings the user's endpoints (its SIP devices, or those in `targets.sip_devices`, plus WebRTC, twinning and teams when asked for and configured; unconfigured ones are skipped and listed in `data.skipped_targets`), then dials `destination`, presenting `caller_identity` (the user's default when omitted). " +
        'The call is placed by the PBX engine: Asterisk over AMI when the PBX has enabled AMI settings, otherwise the embedded simulated engine, whose call detail record appears in the history a few seconds later. ' +
        '403 when the user may not use telephony, or asks for `anonymous` without being allowed anonymous calls. Engine failures answer `{status: "error", message}`: 502 (PBX unreachable, login or call refused), 503 (no engine configured, or the stored AMI host is no longer admitted by the operator allow-list: nothing is attempted), 504 (no answer in time). ' +
        'A call Asterisk cannot place at all (it reports the failure within AMI_ORIGINATE_WAIT_MS, 1.5 s by default) answers 502 with its reason; one still ringing then is a success: follow it with `GET /calls/{id}` or a `webhook_url`. ' +
        'Send an `Idempotency-Key` header to retry safely: within 24 hours a retry gets the first answer (header `Idempotent-Replayed: true`) and places no second call; the same key with another request gives 422, and 409 while the first is still being placed.',
      headers: NewCallHeaders,
      querystring: NewCallQuery,
      body: NewCallBody,
      response: { 200: NewCallResponse, 409: { $ref: 'MessageError#' }, 502: EngineErrorBody, 503: EngineErrorBody, 504: EngineErrorBody },
    },
    handler: async (request, reply) => {
      const answer = await service.placeWithKey(
        tenantOfRequest(request),
        userPrincipalOf(request),
        request.query,
        request.body,
        request.headers['idempotency-key'],
      );
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(answer.status as 200 | 502 | 503 | 504).send(answer.body as never);
    },
  });

  app.addSchema(PlacedCall);
  r.get('/calls/:id', {
    config: { auth: { user: true } },
    schema: {
      tags,
      operationId: 'getCall',
      summary: 'A call placed through POST /calls/new: its status, reason and history record',
      description:
        'The status follows the PBX: queued, ringing, answered, failed (with the reason Asterisk gave), ended (with the hangup cause); `cdr_id` names the call-history record once the PBX reported it. ' +
        "A user reads its own calls (another user's is 403), an administrator every call of the PBX; another PBX's call is 404.",
      params: CallParams,
      response: { 200: DataEnvelope(Type.Ref(PlacedCall)), 404: { $ref: 'NotFoundError#' } },
    },
    handler: async (request) => ({ data: await service.read(tenantOfRequest(request), userPrincipalOf(request), request.params.id) }),
  });
}
