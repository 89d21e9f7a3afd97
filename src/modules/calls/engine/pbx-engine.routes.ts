import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { DataEnvelope } from '../../../http/schema.js';
import { Gauge } from 'prom-client';
import { AmiEventHub } from './ami/event-hub.js';
import { countFailingAmiSettings } from './pbx-engine.queries.js';
import { PbxEngineService } from './pbx-engine.service.js';
import { AmiSettings, ConnectionTestResponse, EngineErrorBody, SaveAmiSettingsBody, TraceQuery } from './pbx-engine.schemas.js';

const tags = ['PBX engine'];

/** The allow-list rule, as both the save and the test document it. */
const AMI_HOST_RULE =
  "The host must be admitted by the server operator's allow-list of AMI hosts: an address in one of its networks, a host name it lists (exactly or as `*.domain`), or a name that resolves only to addresses in its networks. " +
  'Loopback hosts are admitted only where the operator allows them (development), and link-local, multicast, unspecified and reserved addresses never. ' +
  'A refused host is a 422 `{message, errors: {host: [...]}}`, answered before any connection is attempted; the check is repeated on every connection, which goes to the address that was checked.';
const ADMIN = { auth: { user: 'admin' } } as const;

export async function pbxEngineRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const hub = ctx.config.amiEventsEnabled ? new AmiEventHub(ctx, { leaseSeconds: ctx.config.amiEventsLeaseSeconds, log: app.log }) : null;
  if (hub) {
    app.addHook('onReady', async () => hub.start());
    app.addHook('onClose', async () => hub.stop());
  }
  const service = new PbxEngineService(ctx, hub);
  new Gauge({
    name: 'pbx_ami_settings_failing',
    help: 'Enabled AMI settings marked failing: the PBX refused the event listener AMI_LOGIN_FAILURE_LIMIT logins in a row',
    registers: [app.metricsRegistry],
    async collect() {
      this.set(await countFailingAmiSettings(ctx.db));
    },
  });
  app.addSchema(AmiSettings);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/pbx-engine/settings', {
    config: ADMIN,
    schema: {
      tags,
      operationId: 'getAmiSettings',
      summary: "The PBX's Asterisk (AMI) connection settings",
      description:
        'Administrators only. The stored host, port, username, context, whether the engine is enabled, the Asterisk host’s time zone, and the connection state (ok, or failing after repeated refused logins, with the last error); the secret is never returned (`secret_set` tells whether one is stored). 404 when none are stored: calls then go through the default engine.',
      response: { 200: DataEnvelope(Type.Ref(AmiSettings)), 404: { $ref: 'NotFoundError#' } },
    },
    handler: async (request) => ({ data: await service.read(tenantOfRequest(request)) }),
  });

  r.put('/pbx-engine/settings', {
    config: ADMIN,
    schema: {
      tags,
      operationId: 'saveAmiSettings',
      summary: 'Store the AMI connection settings (host, port 5038 by default, username, secret, enabled)',
      description:
        'The secret is stored encrypted and never returned. While enabled, the PBX places calls over AMI instead of the simulated engine. ' + AMI_HOST_RULE,
      body: SaveAmiSettingsBody,
      response: { 200: DataEnvelope(Type.Ref(AmiSettings)) },
    },
    handler: async (request) => ({ data: await service.save(tenantOfRequest(request), request.body) }),
  });

  r.delete('/pbx-engine/settings', {
    config: ADMIN,
    schema: {
      tags,
      operationId: 'deleteAmiSettings',
      summary: 'Forget the AMI settings (calls go back to the default engine)',
      description:
        'Administrators only. Deletes the stored settings and secret for good; the AMI event listener of this PBX stops, and calls and configuration pushes go to the default engine (the simulated one unless PBX_ENGINE says otherwise). 404 when none are stored.',
      response: { 204: Type.Null(), 404: { $ref: 'NotFoundError#' } },
    },
    handler: async (request, reply) => {
      await service.remove(tenantOfRequest(request));
      return reply.code(204).send(null);
    },
  });

  r.post('/pbx-engine/settings/test', {
    config: ADMIN,
    schema: {
      tags,
      operationId: 'testAmiConnection',
      summary: 'Check the stored settings: connect, log in, the permissions the engine needs, and the Asterisk version',
      description:
        'Answers the named checks in `data.checks`: `connect`, `login`, `originate` (the AMI user may send Originate: the `originate` write class), `read_call` and `read_cdr` (it receives call and CDR events: the `call` and `cdr` read classes, read from `manager show user` when the user has the `command` class, else `unverified`), `version`. ' +
        '502 `{status: "error", message, data: {checks}}` when the PBX is unreachable, refuses the login or a check failed; 504 when it does not answer in time. ' +
        AMI_HOST_RULE +
        ' Stored settings whose host the allow-list no longer admits are refused the same way (422 on `host`), and calls of such a PBX answer 503.',
      querystring: TraceQuery,
      response: { 200: ConnectionTestResponse, 404: { $ref: 'NotFoundError#' }, 502: EngineErrorBody, 503: EngineErrorBody, 504: EngineErrorBody },
    },
    handler: async (request) => {
      const result = await service.test(tenantOfRequest(request), request.query.debugAmiTrace === true);
      return {
        status: 'success',
        message: 'Connected and logged in to the PBX; the AMI user may do what the engine needs.',
        data: {
          ami_version: result.ami_version,
          asterisk_version: result.asterisk_version,
          latency_ms: result.latency_ms,
          checks: result.checks,
          ...(result.trace ? { ami_trace: result.trace } : {}),
        },
      };
    },
  });
}
