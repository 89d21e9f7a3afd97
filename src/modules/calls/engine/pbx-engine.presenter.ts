import type { Selectable } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { AmiSettingsTable } from '../calls.tables.js';
import type { testAmiConnection } from './ami/connection-test.js';
import type { AmiSettings, ConnectionTestResponse } from './pbx-engine.schemas.js';

export type AmiSettingsRow = Selectable<AmiSettingsTable>;

/** The settings as the contract shows them: never the secret, the host's time zone defaulting to the PBX's. */
export function presentAmiSettings(row: AmiSettingsRow, tenantTimezone: string): Static<typeof AmiSettings> {
  return {
    host: row.host,
    port: row.port,
    username: row.username,
    secret_set: true,
    enabled: row.enabled === 1,
    context: row.context,
    pbx_timezone: row.pbx_timezone ?? tenantTimezone,
    pbx_timezone_set: row.pbx_timezone !== null,
    connection: {
      state: row.failing_since ? 'failing' : 'ok',
      login_failures: row.login_failures,
      failing_since: row.failing_since,
      last_error: row.last_error,
    },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A connection test that passed every check, with its AMI trace when asked for. */
export function presentConnectionTest(result: Awaited<ReturnType<typeof testAmiConnection>>): Static<typeof ConnectionTestResponse> {
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
}
