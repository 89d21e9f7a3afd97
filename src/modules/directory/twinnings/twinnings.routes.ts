import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { UserParams } from '../users/users.schemas.js';
import { presentTwinning, TwinningsService, type TwinningRow } from './twinnings.service.js';
import { CreateTwinningBody, Twinning, TwinningListQuery, TwinningParams, UpdateTwinningBody } from './twinnings.schemas.js';

const AUTH = { user: true, pbx: true } as const;

export async function twinningRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new TwinningsService(ctx);
  const twinnings = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Twinnings'],
    schema: Twinning,
    present: (rows: TwinningRow[]) => rows.map(presentTwinning),
  });

  twinnings.list('/users/:user/twinnings', {
    auth: AUTH,
    operationId: 'listTwinnings',
    summary: 'Twinnings of a user',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403); a deleted user, or another PBX’s, is 404. ' +
      '`search` matches phone number and backup number; `filter[status]`, `filter[type]` and `filter[sync_source]` narrow the page; oldest first unless `sort` says otherwise.',
    params: UserParams,
    querystring: TwinningListQuery,
    defaultSort: [{ field: 'created_at', direction: 'asc' }],
    fetch: ({ tenant, principal, params, query }, { sort, page }) =>
      service.list(
        tenant,
        principal,
        params.user,
        { search: query.search, status: query['filter[status]'], type: query['filter[type]'], syncSource: query['filter[sync_source]'] },
        sort,
        page,
      ),
  });
  twinnings.create('/users/:user/twinnings', {
    auth: AUTH,
    operationId: 'createTwinning',
    summary: 'Add a twinning (with the PBX API key it is a provisioned twinning)',
    description:
      'A user for itself (only with its allow_change_twinning_dest permission, else 403); an administrator or the PBX key for any user of the PBX. ' +
      'Defaults: enabled, mobile, gsm_only, delay 0, no numbers; numbers are read with the PBX country as default region and stored in E.164 (422 if unreadable). ' +
      'A backup number turns FMC on (with `fmc_enabled: false` it is 422); a teams twinning keeps no numbers and no FMC. ' +
      'Created with the PBX key the twinning is provisioned (`sync_source` provision), otherwise manual.',
    params: UserParams,
    body: CreateTwinningBody,
    run: ({ tenant, principal, params, body }) => service.create(tenant, principal, params.user, body),
  });
  twinnings.read('/users/:user/twinnings/:twinning', {
    auth: AUTH,
    operationId: 'getTwinning',
    summary: 'One twinning',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'A twinning of another user than the one in the path, or of another PBX, is 404.',
    params: TwinningParams,
    load: ({ tenant, principal, params }) => service.get(tenant, principal, params.user, params.twinning),
  });
  for (const [method, operationId] of [
    ['PUT', 'replaceTwinning'],
    ['PATCH', 'updateTwinning'],
  ] as const) {
    twinnings.update('/users/:user/twinnings/:twinning', {
      method,
      auth: AUTH,
      operationId,
      summary: 'Change a twinning (PUT and PATCH are identical: only supplied fields change)',
      description:
        'A user for itself; an administrator or the PBX key for any user of the PBX. A change of phone number, backup number or type needs the user\u2019s allow_change_twinning_dest permission when the user acts itself (403); status and delay do not. ' +
        'On a provisioned twinning (`sync_source` provision) phone_number, type and dial_strategy are locked for every caller: a different value is 422. ' +
        'A backup number turns FMC on (`fmc_enabled: false` with one is 422); a teams twinning keeps no numbers and no FMC. Answers `{data}`.',
      params: TwinningParams,
      body: UpdateTwinningBody,
      run: ({ tenant, principal, params, body }) => service.update(tenant, principal, params.user, params.twinning, body),
    });
  }
  twinnings.delete('/users/:user/twinnings/:twinning', {
    auth: AUTH,
    operationId: 'deleteTwinning',
    summary: 'Remove a twinning',
    description:
      'Removed for good (no restore). ' +
      'A user may remove its own twinning only with its allow_change_twinning_dest permission, and never a provisioned one (403); an administrator or the PBX key removes any twinning of a user of the PBX.',
    params: TwinningParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user, params.twinning),
  });
}
