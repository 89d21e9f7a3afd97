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
    description:
      'User tokens only (API keys are refused, 403): the flag always belongs to the token’s own user. ' +
      'Stores `in_call` with the report time and trusts it for `ttl_seconds` (1 to 86400, default 3600); each report replaces the previous one and restarts the window. ' +
      'Answers 200 `{data}` with the state as it now reads.',
    body: ReportInCallBody,
    run: ({ tenant, principal, body }) => service.report(tenant, requireUser(principal).userId, body),
  });
  inCall.read('/in-call', {
    auth: AUTH,
    operationId: 'getInCall',
    summary: 'The token\u2019s own in-call flag',
    description:
      'User tokens only (403 for API keys). Answers `{data}` with the token’s own user’s flag. ' +
      'A report older than its `ttl_seconds`, or none at all, reads as `in_call: false` with null timestamps (not an error).',
    load: ({ tenant, principal }) => service.current(tenant, requireUser(principal).userId),
  });
}
