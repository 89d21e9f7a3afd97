import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { userPrincipalOf } from '../../../platform/auth/auth-plugin.js';
import { isoIn } from '../../../platform/clock.js';
import { tenantOf, type Tenant } from '../../../platform/tenancy.js';
import { DataEnvelope } from '../../../http/schema.js';
import { findInCallState, saveInCallState } from './in-call.queries.js';
import { DEFAULT_IN_CALL_TTL, InCallState, ReportInCallBody } from './in-call.schemas.js';

const tags = ['In-call state'];
const AUTH = { auth: { user: true } } as const;

/** The flag as it reads now: a report is trusted until it expires, then the user reads as not in a call. */
async function currentState(ctx: AppContext, tenant: Tenant, userId: string): Promise<Static<typeof InCallState>> {
  const row = await findInCallState(ctx.db, tenant, userId);
  const now = ctx.clock.now().toISOString();
  if (!row || row.expires_at <= now) return { user_id: userId, in_call: false, in_call_updated_at: null, expires_at: null, ttl_seconds: row?.ttl_seconds ?? DEFAULT_IN_CALL_TTL };
  return { user_id: userId, in_call: row.in_call === 1, in_call_updated_at: row.in_call_updated_at, expires_at: row.expires_at, ttl_seconds: row.ttl_seconds };
}

export async function inCallRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.addSchema(InCallState);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const one = DataEnvelope(Type.Ref(InCallState));

  r.post('/in-call', {
    config: AUTH,
    schema: { tags, operationId: 'reportInCall', summary: 'Report whether the token\u2019s own user is on a call', body: ReportInCallBody, response: { 200: one } },
    handler: async (request) => {
      const principal = userPrincipalOf(request);
      const tenant = tenantOf(principal);
      const ttl = request.body.ttl_seconds ?? DEFAULT_IN_CALL_TTL;
      await saveInCallState(ctx.db, {
        user_id: principal.userId,
        pbx_id: tenant.pbxId,
        in_call: request.body.in_call ? 1 : 0,
        in_call_updated_at: ctx.clock.now().toISOString(),
        expires_at: isoIn(ctx.clock, ttl),
        ttl_seconds: ttl,
      });
      return { data: await currentState(ctx, tenant, principal.userId) };
    },
  });

  r.get('/in-call', {
    config: AUTH,
    schema: { tags, operationId: 'getInCall', summary: 'The token\u2019s own in-call flag', response: { 200: one } },
    handler: async (request) => {
      const principal = userPrincipalOf(request);
      return { data: await currentState(ctx, tenantOf(principal), principal.userId) };
    },
  });
}
