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

export const ConfigurationPush = Type.Object(pushFields, { $id: 'ConfigurationPush', description: 'A push of the PBX configuration and its progress.' });

const FileHash = Type.Object({ name: Type.String(), sha256: Type.String(), bytes: Type.Integer() });

export const ConfigurationVersion = Type.Object(
  { ...pushFields, files: Type.Array(FileHash, { description: 'The files of the version and their hashes.' }), diff_summary: DiffSummary },
  { $id: 'ConfigurationVersion', description: 'A version of the PBX configuration: every push makes one.' },
);

const FileWithContent = Type.Object({ name: Type.String(), sha256: Type.String(), bytes: Type.Integer(), content: Type.String() });

export const ConfigurationVersionDetail = Type.Object(
  {
    ...pushFields,
    files: Type.Array(FileWithContent, { description: 'The files as pushed.' }),
    manifest: Type.String({ description: 'The manifest (JSON): version, hash per file, generation time.' }),
    diff_summary: DiffSummary,
  },
  { $id: 'ConfigurationVersionDetail', description: 'A version with its files.' },
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
  { $id: 'ConfigurationDryRun', description: 'What a push would deliver, without pushing.' },
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
  { $id: 'ConfigurationStatus', description: 'Whether the PBX runs what the data says.' },
);

export const PushQuery = Type.Object({
  dry_run: Type.Optional(Type.Boolean({ description: '1: answer the files and the diff without pushing (200); 0 or absent: push (202).' })),
});

export const PushParams = Type.Object({ push: Uuid({ description: 'The push’s id.' }) });

export const VersionParams = Type.Object({
  version: Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: 'The version number (1, 2, ...).', examples: ['1'] }),
});

export const VersionListQuery = ListQuery({ sort: VERSION_SORTS, search: false, filters: { status: StringEnum(PUSH_STATUSES) } });
