import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { targetUser } from '../shared/access.js';
import { WebrtcService, type WebrtcSummaryView } from './webrtc.service.js';
import { EmailParams, SaveWebrtcBody, WebrtcConfiguration, WebrtcSummary } from './webrtc.schemas.js';
import { UserParams } from '../users/users.schemas.js';
import { EVERY_PBX } from '../users/users.queries.js';
import { principalOf } from '../../../platform/auth/auth-plugin.js';

const tags = ['WebRTC'];
const MANAGE = { user: 'admin', pbx: true } as const;

export async function webrtcRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new WebrtcService(ctx);
  app.addSchema(WebrtcConfiguration);
  // The full configuration, secrets included, goes to internal services only, and is never cached.
  app.withTypeProvider<TypeBoxTypeProvider>().get('/users/:email/webrtc', {
    config: { auth: { internal: true }, carriesSecret: true },
    schema: {
      tags,
      operationId: 'getWebrtcByEmail',
      summary: 'WebRTC configuration by e-mail (internal API key only)',
      description: 'Finds the user among the internal key\u2019s PBX only: a user of another PBX is 404, as an unknown address is.',
      params: EmailParams,
      response: { 200: Type.Ref(WebrtcConfiguration) },
    },
    handler: async (request) => {
      // A key bound to a PBX finds that PBX's users only; an operator-wide key (its use logged) every PBX's.
      const { pbxId } = principalOf(request);
      return service.byEmail(pbxId === null ? EVERY_PBX : { pbxId }, request.params.email);
    },
  });

  const accounts = resourceRoutes(app, ctx.config.baseUrl, { tags, schema: WebrtcSummary, present: (summaries: WebrtcSummaryView[]) => summaries });
  accounts.action('/users/:user/webrtc-account', {
    method: 'PUT',
    auth: MANAGE,
    operationId: 'saveWebrtc',
    summary: 'Create or replace the WebRTC account of a user; secrets are stored encrypted and not echoed',
    description:
      'Administrators of the PBX and its PBX key, for any live user of the PBX (404 for another PBX’s or a deleted user). ' +
      'Creates the account or replaces it: hostname, port and password are required each time; an omitted username, voicemail_pin or call_pickpup_restrictions keeps the stored one (for a new account: `webrtc_` plus the first 8 characters of the user id, no PIN, yes). ' +
      'The username must be unused on the platform (422). Answers 200 `{data}` with the summary, without password and PIN.',
    params: UserParams,
    body: SaveWebrtcBody,
    run: async ({ tenant, principal, params, body }) => service.save(tenant, await targetUser(ctx.db, tenant, principal, params.user), body),
  });
  accounts.delete('/users/:user/webrtc-account', {
    auth: MANAGE,
    operationId: 'deleteWebrtc',
    summary: 'Remove the WebRTC account of a user',
    description: 'Administrators of the PBX and its PBX key, for any live user of the PBX. Removes the account for good; a user without one is 404.',
    params: UserParams,
    run: async ({ tenant, principal, params }) => service.delete(tenant, await targetUser(ctx.db, tenant, principal, params.user)),
  });
}
