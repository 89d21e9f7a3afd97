import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { userPrincipalOf } from '../../../platform/auth/auth-plugin.js';
import { tenantOf } from '../../../platform/tenancy.js';
import { Unauthorized } from '../../../platform/errors.js';
import { ResponseCache } from '../../../platform/cache/response-cache.js';
import { findProfileRow, findUserWithPbx } from './me.queries.js';
import { presentProfile, presentUserRecord } from './me.presenter.js';
import { Profile, ProfileResponse, UserRecord } from './me.schemas.js';

const tags = ['Login and identity'];

export async function meRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.addSchema(Profile);
  app.addSchema(UserRecord);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  // The token was valid a moment ago; a user gone since then is treated as logged out.
  const found = <T>(row: T | undefined): T => {
    if (!row) throw new Unauthorized('Invalid or expired token.');
    return row;
  };

  // Apps call /me on every start and resume; the profile changes only with its tenant's data.
  const profiles = new ResponseCache(ctx, 10_000);
  r.get('/me', {
    config: { auth: { user: true } },
    schema: {
      tags,
      operationId: 'getProfile',
      summary: 'The authenticated user profile (user tokens only)',
      description:
        'User tokens only; an API key is refused (403). Answers `{message, data}`: the user with its permission flags, its extensions, SIP devices, groups, twinnings, caller identities, WebRTC summary (without password and voicemail PIN), PBX and employee id. ' +
        '`access_token` is always null. A user deleted since the token was issued is 401.',
      response: { 200: ProfileResponse },
    },
    handler: (request, reply) => {
      const principal = userPrincipalOf(request);
      return profiles.serve(reply, principal.userId, principal.pbxId, async () => {
        const row = found(await findProfileRow(ctx.db, tenantOf(principal), principal.userId));
        return { message: 'Authenticated user profile.', data: presentProfile(row) };
      });
    },
  });

  r.get('/user', {
    config: { auth: { user: true } },
    schema: {
      tags,
      operationId: 'getUser',
      summary: 'The authenticated user record (flat)',
      description:
        'User tokens only; an API key is refused (403). The user record without envelope (no `data`): id, pbx_id, names, e-mail, status and timestamps; password and tokens are never serialized. A user deleted since the token was issued is 401.',
      response: { 200: Type.Ref(UserRecord) },
    },
    handler: async (request) => {
      const principal = userPrincipalOf(request);
      return presentUserRecord(found(await findUserWithPbx(ctx.db, tenantOf(principal), principal.userId)));
    },
  });
}
