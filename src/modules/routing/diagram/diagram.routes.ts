import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { operationRoutes, type ResourceCall } from '../../../http/resource-routes.js';
import { CallFlowParams } from '../call-flows/call-flows.schemas.js';
import { IvrParams } from '../ivrs/ivrs.schemas.js';
import { ROUTING_READ } from '../shared/access.js';
import { DIAGRAM_DOCS } from './diagram.docs.js';
import { DIAGRAM_RESPONSES, DiagramQuery, PhoneNumberParams } from './diagram.schemas.js';
import { DiagramService, type DiagramFormat } from './diagram.service.js';
import type { Diagram } from './diagram.js';
import { contentTypeOf, diagramFormat } from './format.js';

/** A number's picture shows its routing: the reader needs both (an integration key both scopes). */
const NUMBER_ROUTE_READ = { user: true, pbx: true, integration: ['phone-numbers', 'call-routing'] } as const;

/** Pictures of the routing: a phone number's route, a call flow's, an IVR's, as SVG or Mermaid. */
export async function diagramRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new DiagramService(ctx);
  const send = async (call: ResourceCall<unknown, { format?: DiagramFormat }>, draw: () => Promise<Diagram>) => {
    // The format is settled before the routing is read, so a refused Accept costs no query.
    const format = diagramFormat(call.query.format, call.request.headers.accept);
    const picture = await service.render(await draw(), format, 'format');
    return call.reply.header('content-type', contentTypeOf(format)).send(Buffer.from(picture, 'utf8'));
  };
  const numbers = operationRoutes(app, { tags: ['Phone numbers'], docs: DIAGRAM_DOCS });
  numbers.route('/phone-numbers/:phoneNumber/route-diagram', {
    method: 'GET',
    auth: NUMBER_ROUTE_READ,
    operationId: 'getPhoneNumberRouteDiagram',
    params: PhoneNumberParams,
    querystring: DiagramQuery,
    response: DIAGRAM_RESPONSES,
    handle: (call) => send(call, () => service.ofNumber(call.tenant, call.params.phoneNumber)),
  });
  const flows = operationRoutes(app, { tags: ['Call flows'], docs: DIAGRAM_DOCS });
  flows.route('/call-flows/:callFlow/diagram', {
    method: 'GET',
    auth: ROUTING_READ,
    operationId: 'getCallFlowDiagram',
    params: CallFlowParams,
    querystring: DiagramQuery,
    response: DIAGRAM_RESPONSES,
    handle: (call) => send(call, () => service.ofCallFlow(call.tenant, call.params.callFlow)),
  });
  const ivrs = operationRoutes(app, { tags: ['IVRs'], docs: DIAGRAM_DOCS });
  ivrs.route('/ivrs/:ivr/diagram', {
    method: 'GET',
    auth: ROUTING_READ,
    operationId: 'getIvrDiagram',
    params: IvrParams,
    querystring: DiagramQuery,
    response: DIAGRAM_RESPONSES,
    handle: (call) => send(call, () => service.ofIvr(call.tenant, call.params.ivr)),
  });
}
