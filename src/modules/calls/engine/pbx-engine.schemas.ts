import { Type } from '@sinclair/typebox';
import { DateTime, PbxText } from '../../../http/schema.js';

export const DEFAULT_AMI_PORT = 5038;

export const AmiSettings = Type.Object(
  {
    host: Type.String(),
    port: Type.Integer(),
    username: Type.String(),
    secret_set: Type.Boolean({ description: 'The secret is stored (encrypted); it is never returned.' }),
    enabled: Type.Boolean({ description: 'When enabled, calls of this PBX are placed over AMI and its call events are listened to.' }),
    context: Type.String({
      description:
        "Dialplan context click-to-call dials the destination in: the tenant's own context (`t` and the PBX id's 32 hex digits), where every push puts its extensions and outbound routes, unless set to another one the Asterisk host defines.",
      examples: ['t00000000000040008000000000000001'],
    }),
    pbx_timezone: Type.String({
      description:
        "IANA time zone of the Asterisk host: cdr_manager writes call times in the host's local time, converted to UTC on ingestion. Unless set it shows the PBX's own time zone, and call times are read at the offset the host's Cdrs show; when set it overrides that, and a mismatch with the host's clock shows in `connection.last_error`.",
      examples: ['Europe/Luxembourg'],
    }),
    pbx_timezone_set: Type.Boolean({ description: 'Whether `pbx_timezone` was set here (false: it follows the PBX time zone).' }),
    connection: Type.Object(
      {
        state: Type.String({
          enum: ['ok', 'failing'],
          description:
            '`failing` once the event listener had AMI_LOGIN_FAILURE_LIMIT logins refused in a row: it then retries only every AMI_FAILING_RETRY_SECONDS until the settings change or a login succeeds.',
        }),
        login_failures: Type.Integer({ description: 'Refused logins of the event listener in a row.' }),
        failing_since: Type.Union([DateTime(), Type.Null()]),
        last_error: Type.Union([Type.String(), Type.Null()]),
      },
      { description: "The event listener's view of these settings." },
    ),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  {
    $id: 'AmiSettings',
    examples: [
      {
        host: 'pbx.example.com',
        port: 5038,
        username: 'pbxapi',
        secret_set: true,
        enabled: true,
        context: 't5b43484168264eb79e1e52f33261ad31',
        pbx_timezone: 'Europe/Luxembourg',
        pbx_timezone_set: true,
        connection: { state: 'ok', login_failures: 0, failing_since: null, last_error: null },
        created_at: '2026-11-23T08:30:00.000Z',
        updated_at: '2026-11-23T08:30:00.000Z',
      },
    ],
  },
);

export const SaveAmiSettingsBody = Type.Object(
  {
    host: Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9.:\\[\\]-]+$', examples: ['pbx.example.com'] }),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, default: DEFAULT_AMI_PORT })),
    username: PbxText({ minLength: 1, maxLength: 255 }),
    secret: Type.Optional(
      PbxText({
        minLength: 1,
        maxLength: 255,
        description: 'Required when no secret is stored yet; omit to keep the stored one.',
      }),
    ),
    enabled: Type.Optional(Type.Boolean({ default: true })),
    context: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{1,79}$',
        description:
          "Dialplan context click-to-call dials the destination in. Omitted: the tenant's own context (`t` and the PBX id's hex digits), which the pushed configuration defines; set it only to a context of the host's own dialplan.",
      }),
    ),
    pbx_timezone: Type.Optional(
      Type.Union([PbxText({ minLength: 1, maxLength: 64, examples: ['Europe/Luxembourg'] }), Type.Null()], {
        description: "IANA time zone of the Asterisk host (its /etc/localtime); null or omitted: the PBX's time zone.",
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        host: 'pbx.example.com',
        port: 5038,
        username: 'pbxapi',
        secret: 'a-long-ami-secret',
        enabled: true,
        pbx_timezone: 'Europe/Luxembourg',
      },
    ],
  },
);

export const TraceQuery = Type.Object({
  debugAmiTrace: Type.Optional(Type.Boolean({ description: 'Return the AMI exchange in `data.ami_trace` (secrets masked).' })),
});

export const AmiTraceEntrySchema = Type.Object({
  direction: Type.String({ enum: ['sent', 'received'] }),
  at_ms: Type.Integer({ description: 'Milliseconds since the connection opened.' }),
  message: Type.String({ description: 'The AMI message as text; secrets replaced by ********.' }),
});

export const ConnectionCheckSchema = Type.Object({
  name: Type.String({
    enum: ['connect', 'login', 'originate', 'config', 'system', 'read_call', 'read_cdr', 'version'],
    description:
      'What was checked: the connection and login; the write classes `originate` (calls), `config` (the configuration push) and `system` (module reloads after a push); the read classes `call` and `cdr` (call progress and history); the Asterisk version.',
  }),
  status: Type.String({
    enum: ['passed', 'failed', 'unverified'],
    description: '`unverified`: the PBX would not tell (no `command` class); does not fail the test.',
  }),
  message: Type.String(),
});

export const ConnectionTestResponse = Type.Object({
  status: Type.String({ examples: ['success'] }),
  message: Type.String(),
  data: Type.Object(
    {
      ami_version: Type.String(),
      asterisk_version: Type.Union([Type.String(), Type.Null()]),
      latency_ms: Type.Integer(),
      checks: Type.Array(ConnectionCheckSchema, { description: 'What the engine needs, each checked by name.' }),
      ami_trace: Type.Optional(Type.Array(AmiTraceEntrySchema)),
    },
    {
      examples: [
        {
          ami_version: '11.0.0',
          asterisk_version: '22.10.1',
          latency_ms: 14,
          checks: [
            { name: 'connect', status: 'passed', message: 'Connected: Asterisk Call Manager/11.0.0.' },
            { name: 'login', status: 'passed', message: 'Logged in as pbxapi.' },
            { name: 'originate', status: 'passed', message: 'The AMI user may place calls (Originate).' },
            {
              name: 'config',
              status: 'passed',
              message: "The AMI user may write the tenant's configuration files (CreateConfig, UpdateConfig, ShowDialPlan).",
            },
            {
              name: 'system',
              status: 'passed',
              message: 'The AMI user may load and reload modules and list endpoints after a push (Reload, ModuleLoad, PJSIPShowEndpoints).',
            },
            { name: 'read_call', status: 'passed', message: 'The AMI user receives call progress (Newchannel, Hangup, OriginateResponse).' },
            { name: 'read_cdr', status: 'passed', message: 'The AMI user receives call detail records (Cdr, from cdr_manager).' },
            { name: 'version', status: 'passed', message: 'Asterisk 22.10.1 built by root @ pbx on a x86_64 running Linux on 2026-01-12 09:14:22 UTC' },
          ],
        },
      ],
    },
  ),
});

export const EngineErrorBody = Type.Object(
  {
    status: Type.String({ enum: ['error'] }),
    message: Type.String(),
    data: Type.Optional(
      Type.Object({
        ami_trace: Type.Optional(Type.Array(AmiTraceEntrySchema)),
        checks: Type.Optional(Type.Array(ConnectionCheckSchema, { description: 'The connection test: every check made, the failed ones included.' })),
      }),
    ),
  },
  {
    description:
      'The PBX engine failed: 502 unreachable, login or call refused, the call failed at once, or (connection test) a check failed; 504 no answer in time. `data.ami_trace` only with debugAmiTrace=true.',
  },
);
