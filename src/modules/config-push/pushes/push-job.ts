import type { AppContext } from '../../../platform/context.js';
import { defineJob, type JobLog, type RunningJob } from '../../../platform/jobs/jobs.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { ConfigurationRefused, deliverConfiguration, type ConfigurationDeliveryHooks } from '../../calls/index.js';
import { openSecret, type ConfigFile } from '../compiler/index.js';
import { findPushById, findVersionById, laterVersionIn, lastDoneVersion, updateVersionIf } from '../versions/versions.queries.js';
import { publishPushProgress } from './pushes.events.js';
import { isFinal, PushTurn, PushTurnLost, silentLog } from './push-lease.js';

export { pushLeaseName } from './push-lease.js';

interface PushPayload {
  pbxId: string;
  pushId: string;
}

/** Only Asterisk configuration files go to the PBX; the manifest stays with the version. */
const isAsteriskFile = (file: ConfigFile) => file.name.endsWith('.conf');

/**
 * The file's sections as the PBX gets them: each sealed-secret token replaced by the opened secret,
 * plain (`openSecret`): the sections go to Asterisk's own config writer, which escapes what its
 * parser reads specially. The content keeps its tokens: what the version stores, diffs and the
 * simulated engine keeps never holds a secret.
 */
function withSecretsOpened(ctx: AppContext, file: ConfigFile): ConfigFile {
  const secrets = file.secrets ?? [];
  if (secrets.length === 0) return file;
  const values = secrets.map((secret): [string, string] => {
    const value = openSecret(secret, (sealed) => ctx.secrets.open(sealed));
    if (value === null) throw new ConfigurationRefused(`A ${secret.kind} in ${file.name} cannot be written safely into the configuration.`);
    return [secret.token, value.plain];
  });
  const swap = (text: string) => values.reduce((out, [token, value]) => out.split(token).join(value), text);
  return { ...file, sections: file.sections.map((section) => ({ ...section, lines: section.lines.map((line) => ({ ...line, value: swap(line.value) })) })) };
}

export interface DeliverPushOptions {
  /** The job running the delivery: its lease is renewed with the PBX's, and it names the lease holder. */
  job?: RunningJob;
  /** Where the delivery logs (defaults to the job's log; nothing without a job). */
  log?: JobLog;
  /** The delivery itself: the calls engine's (tests pass a slower one). */
  deliver?: typeof deliverConfiguration;
}

/**
 * Delivers the push named by `payload` (what the job runs; the demo seed runs it in place) under
 * the PBX's push lease: one delivery per PBX at a time, both leases renewed while it runs, every
 * status change recorded only while this delivery still holds its turn (PushTurn).
 */
export async function deliverPush(ctx: AppContext, payload: PushPayload, jobId: string, options: DeliverPushOptions = {}): Promise<void> {
  const tenant: Tenant = { pbxId: payload.pbxId };
  const log = options.log ?? options.job?.log ?? silentLog;
  const seen = await findVersionById(ctx.db, tenant, payload.pushId);
  if (!seen || isFinal(seen.status)) return;
  const now = () => ctx.clock.now().toISOString();
  const turn = await PushTurn.take(ctx, tenant, seen, { jobId, job: options.job, log });
  if (!turn) {
    // Another push of this PBX is being delivered: this one waits for its next attempt.
    throw new Error('Another push of this PBX was being delivered; this one waits for its turn.');
  }
  try {
    const row = await turn.read();
    if (!row || isFinal(row.status)) return;
    // A newer version already reached the PBX (or is reaching it): delivering this one would undo it.
    const later = await laterVersionIn(ctx.db, tenant, row.version, ['delivering', 'reloading', 'done']);
    if (later) {
      await turn.record('failed', { reason: `Superseded by version ${later.version}, pushed meanwhile.`, updated_at: now(), finished_at: now() });
      return;
    }
    const files = (JSON.parse(row.files) as ConfigFile[]).filter(isAsteriskFile).map((file) => withSecretsOpened(ctx, file));
    const running = await lastDoneVersion(ctx.db, tenant, row.version);
    const before = new Map((running ? (JSON.parse(running.files) as ConfigFile[]) : []).map((file) => [file.name, file.sha256]));
    const changed = files.filter((file) => before.get(file.name) !== file.sha256).map((file) => file.name);
    // `signal` is aborted once this delivery loses its turn: the engine stops between its steps, before the files go live.
    const hooks: ConfigurationDeliveryHooks = {
      signal: turn.signal,
      onDelivering: (engine: 'simulated' | 'asterisk') =>
        turn.record('delivering', { engine, reason: null, started_at: row.started_at ?? now(), updated_at: now() }),
      onReloading: () => turn.record('reloading', { updated_at: now() }),
    };
    const result = await (options.deliver ?? deliverConfiguration)(
      ctx,
      tenant,
      { version: row.version, hash: row.hash, files, changed, lastEngine: running?.engine ?? null, routing: row.routing },
      hooks,
    );
    await turn.record('done', { reloaded: JSON.stringify(result.reloaded), reason: null, updated_at: now(), finished_at: now() });
  } catch (error) {
    // The turn was lost (the job taken over, the lease gone): this run records nothing more.
    if (error instanceof PushTurnLost) throw error;
    if (turn.lost) throw new PushTurnLost('The delivery stopped after losing its turn.', { cause: error });
    const reason = (error as Error).message;
    if (error instanceof ConfigurationRefused) {
      log.warn({ pbx_id: tenant.pbxId, push_id: seen.id, version: seen.version, reason }, 'configuration push refused by the PBX');
      await turn.record('failed', { reason, updated_at: now(), finished_at: now() });
      return;
    }
    // The PBX could not be reached or stopped answering: queued again for the job's next attempt.
    await turn.record('queued', { reason, updated_at: now() });
    throw error;
  } finally {
    await turn.release();
  }
}

/** Delivers one pushed version to the PBX: durable, retried when the PBX cannot be reached. */
export const pushJob = defineJob<PushPayload>({
  kind: 'config_push.deliver',
  maxAttempts: 3,
  backoffSeconds: (attempt) => 15 * attempt,
  run: (ctx, payload, job) => deliverPush(ctx, payload, job.id, { job }),
  async onExhausted(ctx, payload, error, log) {
    const stamp = ctx.clock.now().toISOString();
    const tenant: Tenant = { pbxId: payload.pbxId };
    const before = await findVersionById(ctx.db, tenant, payload.pushId);
    // Never over a final status: a version another run delivered (or failed) stays as it was.
    const changes = { status: 'failed', reason: error, updated_at: stamp, finished_at: stamp } as const;
    if (!before) return;
    const failed = await ctx.db.transaction().execute(async (trx) => {
      const updated = await updateVersionIf(trx, tenant, payload.pushId, { from: ['queued', 'delivering', 'reloading'] }, changes);
      if (updated) await publishPushProgress(ctx, trx, tenant, await findPushById(trx, tenant, payload.pushId));
      return updated;
    });
    if (!failed) return;
    log.info(
      { pbx_id: payload.pbxId, push_id: payload.pushId, version: before.version, from: before.status, to: 'failed', reason: error },
      `configuration push: version ${before.version} ${before.status} → failed`,
    );
  },
});
