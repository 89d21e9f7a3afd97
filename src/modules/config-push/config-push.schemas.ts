import { Type } from '@sinclair/typebox';
import { ListQuery } from '../../http/list-query.js';
import { DateTime, Nullable, StringEnum, Uuid } from '../../http/schema.js';

export const PUSH_STATUSES = ['queued', 'delivering', 'reloading', 'done', 'failed'] as const;
export const VERSION_SORTS = ['version', 'created_at'] as const;

const PushedBy = Type.Object(
  {
    kind: StringEnum(['user', 'integration'] as const, { description: 'An administrator’s user token or an integration key.' }),
    id: Type.String({ description: 'The user token’s or the API key’s id.' }),
    user_id: Nullable(Uuid(), { description: 'The administrator; null for an integration key.' }),
  },
  { description: 'Who asked for the push.' },
);

const FileDiff = Type.Object({
  name: Type.String(),
  status: StringEnum(['added', 'removed', 'changed', 'unchanged'] as const),
  additions: Type.Integer({ description: 'Lines added.' }),
  deletions: Type.Integer({ description: 'Lines removed.' }),
});

export const DiffSummary = Type.Object(
  {
    base_version: Nullable(Type.Integer(), { description: 'The version compared against: the last one the PBX took; null before the first.' }),
    additions: Type.Integer(),
    deletions: Type.Integer(),
    files: Type.Array(FileDiff),
  },
  { description: 'What changed against the version the PBX ran when the push was made.' },
);

const pushFields = {
  id: Uuid({ description: 'The push.' }),
  version: Type.Integer({ minimum: 1, description: 'The configuration version this push delivers (1, 2, ... per PBX).' }),
  status: StringEnum(PUSH_STATUSES, {
    description:
      'queued (waiting for the job, or for another attempt after the PBX could not be reached), delivering (files being written), reloading (modules being reloaded), done, failed (see reason).',
  }),
  reason: Nullable(Type.String(), { description: 'Why the push failed, or why its last attempt did while it waits for another.' }),
  engine: Nullable(StringEnum(['simulated', 'asterisk'] as const), { description: 'The engine that took the files; null until delivery starts.' }),
  hash: Type.String({ description: 'SHA-256 over the files’ names and hashes.' }),
  rollback_of: Nullable(Type.Integer(), {
    description: 'The version whose files this push delivers again (a rollback); null for a push of the current configuration.',
  }),
  reloaded: Type.Array(Type.String(), { description: 'Modules reloaded on the PBX (those whose files changed).' }),
  pushed_by: PushedBy,
  created_at: DateTime(),
  started_at: Nullable(DateTime()),
  finished_at: Nullable(DateTime()),
};

/** The demo's first push, the example of a push and of the versions (which add their files). */
const PUSH_EXAMPLE = {
  id: 'adde332c-60fe-431b-baa9-15cf79bb646c',
  version: 1,
  status: 'done',
  reason: null,
  engine: 'simulated',
  hash: 'd0c095db2362280df9d0bf62f92d751c59b4aa116795707151547070de03a1a5',
  rollback_of: null,
  reloaded: [],
  pushed_by: { kind: 'user', id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc', user_id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc' },
  created_at: '2026-11-02T08:30:00.000Z',
  started_at: '2026-11-02T08:30:00.000Z',
  finished_at: '2026-11-02T08:30:00.000Z',
};

/** What the demo's first version changed: every file added. */
const DIFF_SUMMARY_EXAMPLE = {
  base_version: null,
  additions: 331,
  deletions: 0,
  files: [
    { name: 'extensions.conf', status: 'added', additions: 241, deletions: 0 },
    { name: 'musiconhold.conf', status: 'added', additions: 6, deletions: 0 },
    { name: 'pjsip.conf', status: 'added', additions: 62, deletions: 0 },
    { name: 'queues.conf', status: 'added', additions: 15, deletions: 0 },
    { name: 'voicemail.conf', status: 'added', additions: 7, deletions: 0 },
  ],
};

export const ConfigurationPush = Type.Object(pushFields, {
  $id: 'ConfigurationPush',
  examples: [PUSH_EXAMPLE],
  description: 'A push of the PBX configuration and its progress.',
});

const FileHash = Type.Object({ name: Type.String(), sha256: Type.String(), bytes: Type.Integer() });

export const ConfigurationVersion = Type.Object(
  { ...pushFields, files: Type.Array(FileHash, { description: 'The files of the version and their hashes.' }), diff_summary: DiffSummary },
  {
    $id: 'ConfigurationVersion',
    examples: [
      {
        ...PUSH_EXAMPLE,
        files: [
          { name: 'extensions.conf', sha256: 'a33c9927dcf0f5281558f0c7c8de0ef826ec694ed9e0c59559d7b56ee56ca873', bytes: 13378 },
          { name: 'musiconhold.conf', sha256: '59115144bd402403403f22f37712e3b3130b18baac9be69740300792c585a6c7', bytes: 290 },
          { name: 'pjsip.conf', sha256: 'b4168ce16bbaa63d1de54903e349d3a0c183afefc1e266bcab6527f29b8247aa', bytes: 1760 },
          { name: 'queues.conf', sha256: 'b63bc2c32974b86777ab9b97515d7908c3349b29b06cfd16cf680d01ef9d185b', bytes: 533 },
          { name: 'voicemail.conf', sha256: '3e46baa4121411dac464ddcc9665e80c72db20cbc7ff505f1798ba74b563fe5b', bytes: 416 },
        ],
        diff_summary: DIFF_SUMMARY_EXAMPLE,
      },
    ],
    description: 'A version of the PBX configuration: every push makes one.',
  },
);

const FileWithContent = Type.Object({ name: Type.String(), sha256: Type.String(), bytes: Type.Integer(), content: Type.String() });

export const ConfigurationVersionDetail = Type.Object(
  {
    ...pushFields,
    files: Type.Array(FileWithContent, { description: 'The files as pushed.' }),
    manifest: Type.String({ description: 'The manifest (JSON): version, hash per file, generation time.' }),
    diff_summary: DiffSummary,
  },
  {
    $id: 'ConfigurationVersionDetail',
    examples: [
      {
        ...PUSH_EXAMPLE,
        files: [
          {
            name: 'queues.conf',
            sha256: 'b63bc2c32974b86777ab9b97515d7908c3349b29b06cfd16cf680d01ef9d185b',
            bytes: 533,
            content:
              '; Generated by pbx-api from the tenant data: do not edit, the next push replaces it.\n\n; Queue Support\n[t5b43484168264eb79e1e52f33261ad31-queue-c7be49b648a94c39845721f3eca4eacc]\nstrategy = leastrecent\ntimeout = 20\nretry = 5\nwrapuptime = 15\nmaxlen = 10\nringinuse = no\nautofill = yes\njoinempty = unavailable,invalid,unknown\nleavewhenempty = unavailable,invalid,unknown\nmusicclass = t5b43484168264eb79e1e52f33261ad31-moh-3d61dfd391584e2393a84eca546535d9\nmember => Local/u2d7d40fc5d5848879624@t5b43484168264eb79e1e52f33261ad31-agents/n,1\n',
          },
          {
            name: 'voicemail.conf',
            sha256: '3e46baa4121411dac464ddcc9665e80c72db20cbc7ff505f1798ba74b563fe5b',
            bytes: 416,
            content:
              '; Generated by pbx-api from the tenant data: do not edit, the next push replaces it.\n\n; Mailboxes of Acme Logistics S.à r.l.\n[t5b43484168264eb79e1e52f33261ad31]\n201 => nopin,Anna Schmit,anna.schmit@acme.example,,attach=yes|delete=yes\n202 => pbxapi-sealed-a815470a8a096b7f0b139e16,Luc Weber,luc.weber@acme.example,,attach=yes|delete=yes\n203 => nopin,Marie Hoffmann,marie.hoffmann@acme.example,,attach=yes|delete=yes\n',
          },
        ],
        manifest:
          '{\n  "version": 1,\n  "pbx_id": "5b434841-6826-4eb7-9e1e-52f33261ad31",\n  "generated_at": "2026-11-02T08:30:00.000Z",\n  "hash": "d0c095db2362280df9d0bf62f92d751c59b4aa116795707151547070de03a1a5",\n  "files": [\n    {\n      "name": "extensions.conf",\n      "sha256": "a33c9927dcf0f5281558f0c7c8de0ef826ec694ed9e0c59559d7b56ee56ca873",\n      "bytes": 13378\n    },\n    {\n      "name": "musiconhold.conf",\n      "sha256": "59115144bd402403403f22f37712e3b3130b18baac9be69740300792c585a6c7",\n      "bytes": 290\n    },\n    {\n      "name": "pjsip.conf",\n      "sha256": "b4168ce16bbaa63d1de54903e349d3a0c183afefc1e266bcab6527f29b8247aa",\n      "bytes": 1760\n    },\n    {\n      "name": "queues.conf",\n      "sha256": "b63bc2c32974b86777ab9b97515d7908c3349b29b06cfd16cf680d01ef9d185b",\n      "bytes": 533\n    },\n    {\n      "name": "voicemail.conf",\n      "sha256": "3e46baa4121411dac464ddcc9665e80c72db20cbc7ff505f1798ba74b563fe5b",\n      "bytes": 416\n    }\n  ]\n}\n',
        diff_summary: DIFF_SUMMARY_EXAMPLE,
      },
    ],
    description: 'A version with its files.',
  },
);

const ConfigurationProblem = Type.Object(
  {
    resource: StringEnum(['sip_device', 'webrtc_account', 'file'] as const, {
      description: 'What holds the value: a SIP device, a user’s WebRTC account; file when no resource holds it any more (the files of an earlier version).',
    }),
    id: Type.String({ description: 'The SIP device’s id, the WebRTC account’s user id, or the file’s name.' }),
    name: Type.String({ description: 'The device’s name, the account’s user, or the file’s name.' }),
    field: StringEnum(['secret', 'password', 'voicemail_pin'] as const),
    problem: Type.String({ examples: ['contains a line break'] }),
    message: Type.String({ description: 'The whole sentence, as a refused push gives it.' }),
  },
  { description: 'A value that cannot be written into the configuration.' },
);

export const ConfigurationDryRun = Type.Object(
  {
    hash: Type.String({ description: 'Hash of the configuration compiled now.' }),
    has_changes: Type.Boolean({ description: 'Whether it differs from the version the PBX runs (always true before the first push).' }),
    files: Type.Array(
      Type.Object({
        name: Type.String(),
        sha256: Type.String(),
        bytes: Type.Integer(),
        content: Type.String(),
        status: StringEnum(['added', 'removed', 'changed', 'unchanged'] as const),
      }),
    ),
    manifest: Type.String({ description: 'The manifest the push would carry (its version is the next one).' }),
    diff: Type.String({ description: 'Unified diff (a/ the last pushed version, b/ now) of the changed files; empty when nothing changed.' }),
    diff_summary: DiffSummary,
    problems: Type.Array(ConfigurationProblem, {
      description:
        'Values the PBX could not be given, each named by the resource that holds it (a secret stored with a line break before such values were refused): empty when the configuration can be pushed. A push while any is listed is refused with 422, `errors.configuration` holding the messages and `problems` this list.',
    }),
  },
  {
    $id: 'ConfigurationDryRun',
    examples: [
      {
        hash: '7c1e0a5f3b9d2e4c6a8f0b1d3e5c7a9f2b4d6e8a0c2e4f6a8b0d2f4e6a8c0e2f',
        has_changes: true,
        files: [
          {
            name: 'voicemail.conf',
            sha256: '5e2a9c0d7b4f1e8a3c6d9b2e5f8a1c4d7b0e3f6a9c2d5e8b1f4a7c0d3e6b9f2a',
            bytes: 427,
            content:
              '; Generated by pbx-api from the tenant data: do not edit, the next push replaces it.\n\n; Mailboxes of Acme Logistics S.à r.l.\n[t5b43484168264eb79e1e52f33261ad31]\n201 => nopin,Anna Schmit,anna.schmit@acme.example,,attach=yes|delete=yes\n202 => pbxapi-sealed-a815470a8a096b7f0b139e16,Luc Weber,luc.weber@acme.example,,attach=yes|delete=yes\n203 => nopin,Marie Hoffmann-Weber,marie.hoffmann@acme.example,,attach=yes|delete=yes\n',
            status: 'changed',
          },
        ],
        manifest:
          '{\n  "version": 2,\n  "pbx_id": "5b434841-6826-4eb7-9e1e-52f33261ad31",\n  "generated_at": "2026-11-24T09:12:40.000Z",\n  "hash": "7c1e0a5f3b9d2e4c6a8f0b1d3e5c7a9f2b4d6e8a0c2e4f6a8b0d2f4e6a8c0e2f",\n  "files": [\n    {\n      "name": "voicemail.conf",\n      "sha256": "5e2a9c0d7b4f1e8a3c6d9b2e5f8a1c4d7b0e3f6a9c2d5e8b1f4a7c0d3e6b9f2a",\n      "bytes": 427\n    }\n  ]\n}',
        diff: '--- a/voicemail.conf\n+++ b/voicemail.conf\n@@ -6,1 +6,1 @@\n-203 => nopin,Marie Hoffmann,marie.hoffmann@acme.example,,attach=yes|delete=yes\n+203 => nopin,Marie Hoffmann-Weber,marie.hoffmann@acme.example,,attach=yes|delete=yes\n',
        diff_summary: { base_version: 1, additions: 1, deletions: 1, files: [{ name: 'voicemail.conf', status: 'changed', additions: 1, deletions: 1 }] },
        problems: [],
      },
    ],
    description: 'What a push would deliver, without pushing.',
  },
);

export const ConfigurationStatus = Type.Object(
  {
    last_pushed_version: Nullable(Type.Integer(), { description: 'The version the PBX runs: the last push that finished; null before the first.' }),
    last_pushed_at: Nullable(DateTime()),
    pushed_hash: Nullable(Type.String()),
    current_hash: Type.String({ description: 'Hash of the configuration compiled from the data now.' }),
    has_unpushed_changes: Type.Boolean({ description: 'The data changed since the last push (or none was made): a push is due.' }),
    pending_push: Nullable(Type.Object({ id: Uuid(), version: Type.Integer(), status: StringEnum(['queued', 'delivering', 'reloading'] as const) }), {
      description: 'A push on its way, if any.',
    }),
  },
  {
    $id: 'ConfigurationStatus',
    examples: [
      {
        last_pushed_version: 1,
        last_pushed_at: '2026-11-02T08:30:00.000Z',
        pushed_hash: 'd0c095db2362280df9d0bf62f92d751c59b4aa116795707151547070de03a1a5',
        current_hash: '05b859d0c74b526382c4821c24c5cee2cd1587e48a40f0c5d007fe92f45a83bc',
        has_unpushed_changes: true,
        pending_push: null,
      },
    ],
    description: 'Whether the PBX runs what the data says.',
  },
);

export const PushQuery = Type.Object({
  dry_run: Type.Optional(Type.Boolean({ description: '1: answer the files and the diff without pushing (200); 0 or absent: push (202).' })),
});

export const PushParams = Type.Object({ push: Uuid({ description: 'The push’s id.' }) });

export const VersionParams = Type.Object({
  version: Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: 'The version number (1, 2, ...).', examples: ['1'] }),
});

export const VersionListQuery = ListQuery({ sort: VERSION_SORTS, search: false, filters: { status: StringEnum(PUSH_STATUSES) } });
