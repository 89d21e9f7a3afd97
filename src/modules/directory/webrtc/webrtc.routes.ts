import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { tagHiddenState } from '../../../http/conditional-requests.js';
import { WEBRTC_DOCS } from './webrtc.docs.js';
import { WebrtcService, type WebrtcSummaryView } from './webrtc.service.js';
import { EmailParams, SaveWebrtcBody, WebrtcConfiguration, WebrtcSummary } from './webrtc.schemas.js';
import { UserParams } from '../users/users.schemas.js';

const MANAGE = { user: 'admin', pbx: true } as const;

export async function webrtcRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new WebrtcService(ctx);
  app.addSchema(WebrtcConfiguration);
  const accounts = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['WebRTC'],
    docs: WEBRTC_DOCS,
    schema: WebrtcSummary,
    present: (summaries: WebrtcSummaryView[]) => summaries,
  });
  accounts.route('/users/:email/webrtc', {
    method: 'GET',
    auth: { internal: true },
    // The full configuration, secrets included, goes to internal services only, and is never cached.
    config: { carriesSecret: true },
    operationId: 'getWebrtcByEmail',
    params: EmailParams,
    response: { 200: Type.Ref(WebrtcConfiguration) },
    handle: ({ principal, params }) => service.byEmail(principal, params.email),
  });

  accounts.read('/users/:user/webrtc-account', {
    auth: MANAGE,
    operationId: 'getWebrtc',
    params: UserParams,
    load: async ({ tenant, principal, params, reply }) => {
      const { summary, secretsVersion } = await service.getFor(tenant, principal, params.user);
      tagHiddenState(reply, secretsVersion);
      return summary;
    },
  });
  accounts.action('/users/:user/webrtc-account', {
    method: 'PUT',
    auth: MANAGE,
    operationId: 'saveWebrtc',
    params: UserParams,
    body: SaveWebrtcBody,
    run: ({ tenant, principal, params, body }) => service.saveFor(tenant, principal, params.user, body),
  });
  accounts.delete('/users/:user/webrtc-account', {
    auth: MANAGE,
    operationId: 'deleteWebrtc',
    params: UserParams,
    run: ({ tenant, principal, params }) => service.deleteFor(tenant, principal, params.user),
  });
}
