import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { IN_CALL_DOCS } from './in-call.docs.js';
import { InCallService, type InCallView } from './in-call.service.js';
import { InCallState, ReportInCallBody } from './in-call.schemas.js';

const AUTH = { user: true } as const;

export async function inCallRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new InCallService(ctx);
  const inCall = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['In-call state'],
    docs: IN_CALL_DOCS,
    schema: InCallState,
    present: (views: InCallView[]) => views,
  });

  inCall.action('/in-call', {
    method: 'POST',
    auth: AUTH,
    operationId: 'reportInCall',
    body: ReportInCallBody,
    run: ({ tenant, user, body }) => service.report(tenant, user.userId, body),
  });
  inCall.read('/in-call', {
    auth: AUTH,
    operationId: 'getInCall',
    load: ({ tenant, user }) => service.current(tenant, user.userId),
  });
}
