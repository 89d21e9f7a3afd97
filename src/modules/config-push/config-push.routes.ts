import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import { operationRoutes, resourceRoutes, type RouteGroup } from '../../http/resource-routes.js';
import { DataEnvelope } from '../../http/schema.js';
import {
  ConfigurationDryRun,
  ConfigurationPush,
  ConfigurationStatus,
  ConfigurationVersion,
  ConfigurationVersionDetail,
  PushParams,
  PushQuery,
  VersionListQuery,
  VersionParams,
} from './config-push.schemas.js';
import { CONFIG_PUSH_DOCS } from './config-push.docs.js';
import { presentPush, presentVersion, presentVersionDetail } from './config-push.presenter.js';
import { ConfigPushService, type ConfigVersionRow } from './pushes/pushes.service.js';
import { PUSH_ACCEPTED_DESCRIPTION, PUSH_TOO_SOON_RESPONSE, underPushLimit } from './pushes/push-limit.js';

/** An administrator, or an integration key holding `push-configuration`. */
export const CONFIG_PUSH = { user: 'admin', integration: ['push-configuration'] } as const;

/** A push's 202 and its own 429, each described with the push limit's headers. */
const PUSHED = {
  202: Type.Object({ data: Type.Ref(ConfigurationPush) }, { description: PUSH_ACCEPTED_DESCRIPTION }),
  429: PUSH_TOO_SOON_RESPONSE,
};

export async function configPushRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ConfigPushService(ctx);
  const group: RouteGroup<undefined> = { tags: ['Configuration push'], docs: CONFIG_PUSH_DOCS };
  app.addSchema(ConfigurationPush);
  app.addSchema(ConfigurationDryRun);
  app.addSchema(ConfigurationStatus);
  const { route } = operationRoutes(app, group);

  // A dry run answers the compiled files (200), a push the push (202) under the push limit's headers.
  route('/pbx/configuration/push', {
    method: 'POST',
    auth: CONFIG_PUSH,
    operationId: 'pushConfiguration',
    idempotent: true,
    querystring: PushQuery,
    response: { 200: DataEnvelope(Type.Ref(ConfigurationDryRun)), ...PUSHED },
    handle: async ({ tenant, principal, query, request, reply }) => {
      if (query.dry_run) return { data: await service.dryRun(tenant) };
      const row = await underPushLimit(reply, () => service.push(tenant, principal, request.id));
      reply.code(202);
      return { data: presentPush(row) };
    },
  });
  route('/pbx/configuration/versions/:version/rollback', {
    method: 'POST',
    auth: CONFIG_PUSH,
    operationId: 'rollbackConfiguration',
    idempotent: true,
    params: VersionParams,
    response: PUSHED,
    handle: async ({ tenant, principal, params, request, reply }) => {
      const row = await underPushLimit(reply, () => service.rollback(tenant, principal, request.id, params.version));
      reply.code(202);
      return { data: presentPush(row) };
    },
  });
  route('/pbx/configuration/status', {
    method: 'GET',
    auth: CONFIG_PUSH,
    operationId: 'getConfigurationStatus',
    response: { 200: DataEnvelope(Type.Ref(ConfigurationStatus)) },
    handle: async ({ tenant }) => ({ data: await service.status(tenant) }),
  });

  const pushes = resourceRoutes(app, ctx.config.baseUrl, { ...group, schema: ConfigurationPush, present: (rows: ConfigVersionRow[]) => rows.map(presentPush) });
  pushes.read('/pbx/configuration/pushes/:push', {
    auth: CONFIG_PUSH,
    operationId: 'getConfigurationPush',
    params: PushParams,
    load: ({ tenant, params }) => service.get(tenant, params.push),
  });

  const versions = resourceRoutes(app, ctx.config.baseUrl, {
    ...group,
    schema: ConfigurationVersion,
    present: (rows: ConfigVersionRow[]) => rows.map(presentVersion),
  });
  versions.list('/pbx/configuration/versions', {
    auth: CONFIG_PUSH,
    operationId: 'listConfigurationVersions',
    querystring: VersionListQuery,
    defaultSort: [{ field: 'version', direction: 'desc' }],
    fetch: ({ tenant, query }, { sort, page }) => service.versions(tenant, { status: query['filter[status]'] }, sort, page),
  });

  const details = resourceRoutes(app, ctx.config.baseUrl, {
    ...group,
    schema: ConfigurationVersionDetail,
    present: (rows: ConfigVersionRow[]) => rows.map(presentVersionDetail),
  });
  details.read('/pbx/configuration/versions/:version', {
    auth: CONFIG_PUSH,
    operationId: 'getConfigurationVersion',
    params: VersionParams,
    load: ({ tenant, params }) => service.version(tenant, params.version),
  });
}
