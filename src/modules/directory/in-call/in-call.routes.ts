import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { requireUser } from '../../../platform/auth/principal.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { InCallService, type InCallView } from './in-call.service.js';
import { InCallState, ReportInCallBody } from './in-call.schemas.js';

const AUTH = { user: true } as const;

export async function inCallRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new InCallService(ctx);
  const inCall = resourceRoutes(app, ctx.config.baseUrl, { tags: ['In-call state'], schema: InCallState, present: (views: InCallView[]) => views });

  inCall.action('/in-call', {
    method: 'POST',
    auth: AUTH,
    operationId: 'reportInCall',
    summary: 'Report whether the token\u2019s own user is on a call',
    body: ReportInCallBody,
    run: ({ tenant, principal, body }) => service.report(tenant, requireUser(principal).userId, body),
  });
  inCall.read('/in-call', {
    auth: AUTH,
    operationId: 'getInCall',
    summary: 'The token\u2019s own in-call flag',
    load: ({ tenant, principal }) => service.current(tenant, requireUser(principal).userId),
  });
}
