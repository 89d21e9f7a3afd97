import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../platform/context.js';
import { principalOf, tenantOfRequest } from '../../platform/auth/auth-plugin.js';
import { resourceRoutes } from '../../http/resource-routes.js';
import { DataEnvelope } from '../../http/schema.js';
import type { ConfigVersionRow } from './versions/versions.queries.js';
import { listVersions } from './versions/versions.queries.js';
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
import { presentPush, presentVersion, presentVersionDetail } from './config-push.presenter.js';
import { ConfigPushService } from './pushes/pushes.service.js';
import { PUSH_ACCEPTED_DESCRIPTION, PUSH_INTERVAL_SECONDS, PUSH_TOO_SOON_RESPONSE, underPushLimit } from './pushes/push-limit.js';

/** An administrator, or an integration key holding `push-configuration`. */
export const CONFIG_PUSH = { user: 'admin', integration: ['push-configuration'] } as const;

const TAGS = ['Configuration push'];
const LIMIT = `One push a minute per PBX (a rollback counts as one; a dry run does not): a push within ${PUSH_INTERVAL_SECONDS} s of the PBX's last is refused with 429 and Retry-After, the seconds left. The 202 and that 429 carry the push limit's rate-limit headers (X-RateLimit-Limit 1, X-RateLimit-Remaining 0, X-RateLimit-Reset the seconds until the next push may go), not the general budget's.`;
/** A push's 202 and its own 429, each described with the push limit's headers. */
const PUSHED = {
  202: Type.Object({ data: Type.Ref(ConfigurationPush) }, { description: PUSH_ACCEPTED_DESCRIPTION }),
  429: PUSH_TOO_SOON_RESPONSE,
};

export async function configPushRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ConfigPushService(ctx);
  app.addSchema(ConfigurationPush);
  app.addSchema(ConfigurationDryRun);
  app.addSchema(ConfigurationStatus);

  app.withTypeProvider<TypeBoxTypeProvider>().route({
    method: 'POST',
    url: '/pbx/configuration/push',
    config: { auth: CONFIG_PUSH },
    schema: {
      tags: TAGS,
      operationId: 'pushConfiguration',
      summary: 'Push the PBX configuration (or preview it with dry_run=1)',
      description: `Compiles the PBX's Asterisk configuration (pjsip.conf, extensions.conf, queues.conf, voicemail.conf, musiconhold.conf and a manifest) from its directory and routing. With dry_run=1: 200 with the files and a unified diff against the last pushed version, nothing pushed. Otherwise a new version is recorded and a durable job delivers it (AMI UpdateConfig and module reloads on Asterisk; the simulation's active configuration on the simulated engine): 202 with the push, whose progress GET /pbx/configuration/pushes/{push} shows. ${LIMIT} Two pushes of one PBX are never delivered at once, whichever instances run them.`,
      querystring: PushQuery,
      response: { 200: DataEnvelope(Type.Ref(ConfigurationDryRun)), ...PUSHED },
    },
    handler: async (request, reply) => {
      const tenant = tenantOfRequest(request);
      if (request.query.dry_run) return { data: await service.dryRun(tenant) };
      const row = await underPushLimit(reply, () => service.push(tenant, principalOf(request), request.id));
      return reply.code(202).send({ data: presentPush(row) });
    },
  });

  // Beside the table: the push limit's own 202 headers and 429.
  app.withTypeProvider<TypeBoxTypeProvider>().route({
    method: 'POST',
    url: '/pbx/configuration/versions/:version/rollback',
    config: { auth: CONFIG_PUSH },
    schema: {
      tags: TAGS,
      operationId: 'rollbackConfiguration',
      summary: 'Push an earlier version again',
      description: `Pushes the files of the given version again, as a new version (rollback_of names the version): 202 with the push. ${LIMIT}`,
      params: VersionParams,
      response: PUSHED,
    },
    handler: async (request, reply) => {
      const push = () => service.rollback(tenantOfRequest(request), principalOf(request), request.id, request.params.version);
      return reply.code(202).send({ data: presentPush(await underPushLimit(reply, push)) });
    },
  });

  app.route({
    method: 'GET',
    url: '/pbx/configuration/status',
    config: { auth: CONFIG_PUSH },
    schema: {
      tags: TAGS,
      operationId: 'getConfigurationStatus',
      summary: 'Whether the PBX has unpushed changes',
      description:
        'Compiles the configuration from the data now and compares its hash with the version the PBX runs (the last push that finished): has_unpushed_changes is true when a change to users, extensions, devices, numbers, forwards, DND or routing has not been pushed yet, or nothing was ever pushed.',
      response: { 200: DataEnvelope(Type.Ref(ConfigurationStatus)) },
    },
    handler: async (request) => ({ data: await service.status(tenantOfRequest(request)) }),
  });

  const pushes = resourceRoutes(app, ctx.config.baseUrl, {
    tags: TAGS,
    schema: ConfigurationPush,
    present: (rows: ConfigVersionRow[]) => rows.map(presentPush),
  });
  pushes.read('/pbx/configuration/pushes/:push', {
    auth: CONFIG_PUSH,
    operationId: 'getConfigurationPush',
    summary: 'A push and its progress',
    description: 'Status queued, delivering, reloading, done or failed (with the reason), and the version it delivers.',
    params: PushParams,
    load: ({ tenant, params }) => service.get(tenant, params.push),
  });

  const versions = resourceRoutes(app, ctx.config.baseUrl, {
    tags: TAGS,
    schema: ConfigurationVersion,
    present: (rows: ConfigVersionRow[]) => rows.map(presentVersion),
  });
  versions.list('/pbx/configuration/versions', {
    auth: CONFIG_PUSH,
    operationId: 'listConfigurationVersions',
    summary: 'The versions of the PBX configuration',
    description:
      'Every push made a version: who pushed it and when, its files’ hashes, what changed against the version the PBX ran before, and the result. Newest first.',
    querystring: VersionListQuery,
    defaultSort: [{ field: 'version', direction: 'desc' }],
    fetch: ({ tenant, query }, { sort, page }) => listVersions(ctx.db, tenant, { status: query['filter[status]'] }, sort, page),
  });

  const details = resourceRoutes(app, ctx.config.baseUrl, {
    tags: TAGS,
    schema: ConfigurationVersionDetail,
    present: (rows: ConfigVersionRow[]) => rows.map(presentVersionDetail),
  });
  details.read('/pbx/configuration/versions/:version', {
    auth: CONFIG_PUSH,
    operationId: 'getConfigurationVersion',
    summary: 'A version with its files',
    description: 'The files as pushed, their hashes, the manifest and the diff summary.',
    params: VersionParams,
    load: ({ tenant, params }) => service.version(tenant, params.version),
  });
}
