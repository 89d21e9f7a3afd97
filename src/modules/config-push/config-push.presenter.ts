import type { Static } from '@sinclair/typebox';
import type { ConfigFile } from './compiler/index.js';
import type { DiffSummary } from './diff.js';
import type { ConfigurationPush, ConfigurationVersion, ConfigurationVersionDetail } from './config-push.schemas.js';
import type { ConfigVersionRow, PUSH_COLUMNS } from './versions/versions.queries.js';

const filesOf = (row: ConfigVersionRow) => JSON.parse(row.files) as ConfigFile[];

/** What a push's answer shows of its version (PUSH_COLUMNS), not its files. */
export type PushRow = Pick<ConfigVersionRow, (typeof PUSH_COLUMNS)[number]>;

export function presentPush(row: PushRow): Static<typeof ConfigurationPush> {
  return {
    id: row.id,
    version: row.version,
    status: row.status,
    reason: row.reason,
    engine: row.engine as 'simulated' | 'asterisk' | null,
    hash: row.hash,
    rollback_of: row.rollback_of,
    reloaded: JSON.parse(row.reloaded) as string[],
    pushed_by: { kind: row.principal_kind as 'user' | 'integration', id: row.principal_id, user_id: row.user_id },
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

export function presentVersion(row: ConfigVersionRow): Static<typeof ConfigurationVersion> {
  return {
    ...presentPush(row),
    files: filesOf(row).map((file) => ({ name: file.name, sha256: file.sha256, bytes: Buffer.byteLength(file.content) })),
    diff_summary: JSON.parse(row.diff_summary) as DiffSummary,
  };
}

export function presentVersionDetail(row: ConfigVersionRow): Static<typeof ConfigurationVersionDetail> {
  return {
    ...presentPush(row),
    files: filesOf(row).map((file) => ({ name: file.name, sha256: file.sha256, bytes: Buffer.byteLength(file.content), content: file.content })),
    manifest: row.manifest,
    diff_summary: JSON.parse(row.diff_summary) as DiffSummary,
  };
}
