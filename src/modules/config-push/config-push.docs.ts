import type { OperationDocs } from '../../http/resource-routes.js';
import { PUSH_INTERVAL_SECONDS } from './pushes/push-limit.js';

const LIMIT = `One push a minute per PBX (a rollback counts as one; a dry run does not): a push within ${PUSH_INTERVAL_SECONDS} s of the PBX's last is refused with 429 and Retry-After, the seconds left. The 202 and that 429 carry the push limit's rate-limit headers (X-RateLimit-Limit 1, X-RateLimit-Remaining 0, X-RateLimit-Reset the seconds until the next push may go), not the general budget's.`;

/** The OpenAPI text of config-push.routes.ts, by operation id. */
export const CONFIG_PUSH_DOCS = {
  pushConfiguration: {
    summary: 'Push the PBX configuration (or preview it with dry_run=1)',
    description: `Compiles the PBX's Asterisk configuration (pjsip.conf, extensions.conf, queues.conf, voicemail.conf, musiconhold.conf and a manifest) from its directory and routing. With dry_run=1: 200 with the files and a unified diff against the last pushed version, nothing pushed. Otherwise a new version is recorded and a durable job delivers it (AMI UpdateConfig and module reloads on Asterisk; the simulation's active configuration on the simulated engine): 202 with the push, whose progress GET /pbx/configuration/pushes/{push} shows. ${LIMIT} Two pushes of one PBX are never delivered at once, whichever instances run them.`,
  },
  rollbackConfiguration: {
    summary: 'Push an earlier version again',
    description: `Pushes the files of the given version again, as a new version (rollback_of names the version): 202 with the push. ${LIMIT}`,
  },
  getConfigurationStatus: {
    summary: 'Whether the PBX has unpushed changes',
    description:
      'Compiles the configuration from the data now and compares its hash with the version the PBX runs (the last push that finished): has_unpushed_changes is true when a change to users, extensions, devices, numbers, forwards, DND or routing has not been pushed yet, or nothing was ever pushed.',
  },
  getConfigurationPush: {
    summary: 'A push and its progress',
    description: 'Status queued, delivering, reloading, done or failed (with the reason), and the version it delivers.',
  },
  listConfigurationVersions: {
    summary: 'The versions of the PBX configuration',
    description:
      'Every push made a version: who pushed it and when, its files’ hashes, what changed against the version the PBX ran before, and the result. Newest first.',
  },
  getConfigurationVersion: {
    summary: 'A version with its files',
    description: 'The files as pushed, their hashes, the manifest and the diff summary.',
  },
} satisfies OperationDocs;
