import type { AppContext } from '../../../platform/context.js';
import { defineJob } from '../../../platform/jobs/jobs.js';
import { acquireLease, releaseLease } from '../../../platform/leases.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { ConfigurationRefused, deliverConfiguration } from '../../calls/index.js';
import { deliverableContent, type ConfigFile } from '../compiler/index.js';
import { findVersionById, laterVersionIn, lastDoneVersion, updateVersion } from '../versions/versions.queries.js';

interface PushPayload {
  pbxId: string;
  pushId: string;
}

/** How long one delivery may hold the PBX's push lease without finishing (a dead worker's lapses). */
const LEASE_SECONDS = 300;

/** The lease that lets one delivery at a time reach a PBX, whichever instance runs it. */
export const pushLeaseName = (pbxId: string) => `config-push:${pbxId}`;

/** Only Asterisk configuration files go to the PBX; the manifest stays with the version. */
const isAsteriskFile = (file: ConfigFile) => file.name.endsWith('.conf');

/**
 * The file's sections as the PBX gets them: each sealed-secret token replaced by the opened secret,
 * escaped by the compiler (`deliverableContent`). The content keeps its tokens: what the version
 * stores, diffs and the simulated engine keeps never holds a secret.
 */
function withSecretsOpened(ctx: AppContext, file: ConfigFile): ConfigFile {
  const secrets = file.secrets ?? [];
  if (secrets.length === 0) return file;
  const open = (sealed: string) => ctx.secrets.open(sealed);
  let values: Array<[string, string]>;
  try {
    values = secrets.map((secret) => [secret.token, deliverableContent({ ...file, content: secret.token, secrets: [secret] }, open)]);
  } catch (error) {
    throw new ConfigurationRefused((error as Error).message);
  }
  const swap = (text: string) => values.reduce((out, [token, value]) => out.split(token).join(value), text);
  return { ...file, sections: file.sections.map((section) => ({ ...section, lines: section.lines.map((line) => ({ ...line, value: swap(line.value) })) })) };
}

/** Delivers the push named by `payload` (what the job runs; the demo seed runs it in place). */
export async function deliverPush(ctx: AppContext, payload: PushPayload, jobId: string): Promise<void> {
  const tenant: Tenant = { pbxId: payload.pbxId };
  const row = await findVersionById(ctx.db, tenant, payload.pushId);
  if (!row || row.status === 'done' || row.status === 'failed') return;
  const now = () => ctx.clock.now().toISOString();
  const holder = `config-push-job:${jobId}`;
  const until = new Date(ctx.clock.nowMs() + LEASE_SECONDS * 1000).toISOString();
  if (!(await acquireLease(ctx.db, pushLeaseName(tenant.pbxId), holder, now(), until))) {
    // Another push of this PBX is being delivered: this one waits for its next attempt.
    throw new Error('Another push of this PBX was being delivered; this one waits for its turn.');
  }
  try {
    // A newer version already reached the PBX (or is reaching it): delivering this one would undo it.
    const later = await laterVersionIn(ctx.db, tenant, row.version, ['delivering', 'reloading', 'done']);
    if (later) {
      await updateVersion(ctx.db, tenant, row.id, {
        status: 'failed',
        reason: `Superseded by version ${later.version}, pushed meanwhile.`,
        updated_at: now(),
        finished_at: now(),
      });
      return;
    }
    const files = (JSON.parse(row.files) as ConfigFile[]).filter(isAsteriskFile).map((file) => withSecretsOpened(ctx, file));
    const running = await lastDoneVersion(ctx.db, tenant, row.version);
    const before = new Map((running ? (JSON.parse(running.files) as ConfigFile[]) : []).map((file) => [file.name, file.sha256]));
    const changed = files.filter((file) => before.get(file.name) !== file.sha256).map((file) => file.name);
    const result = await deliverConfiguration(
      ctx,
      tenant,
      { version: row.version, hash: row.hash, files, changed, lastEngine: running?.engine ?? null, routing: row.routing },
      {
        onDelivering: (engine) =>
          updateVersion(ctx.db, tenant, row.id, { status: 'delivering', engine, reason: null, started_at: row.started_at ?? now(), updated_at: now() }),
        onReloading: () => updateVersion(ctx.db, tenant, row.id, { status: 'reloading', updated_at: now() }),
      },
    );
    await updateVersion(ctx.db, tenant, row.id, {
      status: 'done',
      reloaded: JSON.stringify(result.reloaded),
      reason: null,
      updated_at: now(),
      finished_at: now(),
    });
  } catch (error) {
    const reason = (error as Error).message;
    if (error instanceof ConfigurationRefused) {
      await updateVersion(ctx.db, tenant, row.id, { status: 'failed', reason, updated_at: now(), finished_at: now() });
      return;
    }
    // The PBX could not be reached or stopped answering: queued again for the job's next attempt.
    await updateVersion(ctx.db, tenant, row.id, { status: 'queued', reason, updated_at: now() });
    throw error;
  } finally {
    await releaseLease(ctx.db, pushLeaseName(tenant.pbxId), holder);
  }
}

/** Delivers one pushed version to the PBX: durable, retried when the PBX cannot be reached. */
export const pushJob = defineJob<PushPayload>({
  kind: 'config_push.deliver',
  maxAttempts: 3,
  backoffSeconds: (attempt) => 15 * attempt,
  run: (ctx, payload, job) => deliverPush(ctx, payload, job.id),
  async onExhausted(ctx, payload, error) {
    const stamp = ctx.clock.now().toISOString();
    await updateVersion(ctx.db, { pbxId: payload.pbxId }, payload.pushId, { status: 'failed', reason: error, updated_at: stamp, finished_at: stamp });
  },
});
