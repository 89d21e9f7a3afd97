import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../../platform/context.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { recordAudit } from '../../../platform/audit/audit.js';
import { NotFound, TooManyRequests } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { compileConfiguration, loadConfigurationSnapshot, manifestFile, type CompiledConfiguration, type ConfigFile } from '../compiler/index.js';
import type { DiffSummary } from '../diff.js';
import { routingSnapshot } from '../../routing/index.js';
import type { ConfigVersionRow } from '../versions/versions.queries.js';
import {
  findVersion,
  findVersionById,
  insertVersion,
  lastDoneVersion,
  lastPushAt,
  nextVersionNumber,
  pendingVersion,
  takePushGate,
  updateVersion,
} from '../versions/versions.queries.js';
import { pushJob } from './push-job.js';

/** The contract's limit: one push a minute per PBX. */
export const PUSH_INTERVAL_SECONDS = 60;

export const filesOf = (row: ConfigVersionRow): ConfigFile[] => JSON.parse(row.files) as ConfigFile[];

/** The dry run's answer: the files compiled now and how they differ from what the PBX runs. */
export interface DryRun {
  hash: string;
  has_changes: boolean;
  files: Array<{ name: string; sha256: string; bytes: number; content: string; status: DiffSummary['files'][number]['status'] }>;
  manifest: string;
  diff: string;
  diff_summary: DiffSummary;
}

/**
 * Pushes of the PBX configuration: the dry run (compile and diff against the last pushed version),
 * the push itself (a version and a durable delivery job, one a minute per PBX), rollback (a push
 * of an earlier version's files), the unpushed-changes status.
 */
/** The line diff (the `diff` package) loads with the first dry run or push, not at every start. */
const loadDiff = () => import('../diff.js');

export class ConfigPushService {
  constructor(private readonly ctx: AppContext) {}

  /** The configuration as the data says now. */
  async compileNow(tenant: Tenant): Promise<CompiledConfiguration> {
    return compileConfiguration(await loadConfigurationSnapshot(this.ctx.db, tenant));
  }

  async dryRun(tenant: Tenant): Promise<DryRun> {
    const compiled = await this.compileNow(tenant);
    const base = await lastDoneVersion(this.ctx.db, tenant);
    const { diff, summary } = (await loadDiff()).diffFiles(base ? filesOf(base) : [], compiled.files, base?.version ?? null);
    const manifest = manifestFile(compiled, {
      version: await nextVersionNumber(this.ctx.db, tenant),
      generatedAt: this.ctx.clock.now().toISOString(),
      pbxId: tenant.pbxId,
    });
    const statusOf = new Map(summary.files.map((file) => [file.name, file.status]));
    return {
      hash: compiled.hash,
      has_changes: !base || base.hash !== compiled.hash,
      files: compiled.files.map((file) => ({
        name: file.name,
        sha256: file.sha256,
        bytes: Buffer.byteLength(file.content),
        content: file.content,
        status: statusOf.get(file.name) ?? 'unchanged',
      })),
      manifest: manifest.content,
      diff,
      diff_summary: summary,
    };
  }

  /** Compiles now and pushes the result. */
  async push(tenant: Tenant, principal: Principal, requestId: string | null): Promise<ConfigVersionRow> {
    const compiled = await this.compileNow(tenant);
    return this.enqueue(tenant, principal, requestId, compiled, null, await routingSnapshot(this.ctx.db, tenant));
  }

  /** Pushes an earlier version's files again, as a new version. */
  async rollback(tenant: Tenant, principal: Principal, requestId: string | null, version: string): Promise<ConfigVersionRow> {
    const target = await this.version(tenant, version);
    const files = filesOf(target);
    return this.enqueue(tenant, principal, requestId, { files, hash: target.hash }, target.version, target.routing);
  }

  /**
   * A new version and its delivery job, in one transaction with the push gate and the audit entry:
   * a push refused by the gate (429 with Retry-After) leaves nothing behind.
   */
  private async enqueue(
    tenant: Tenant,
    principal: Principal,
    requestId: string | null,
    compiled: CompiledConfiguration,
    rollbackOf: number | null,
    routing: string | null,
  ): Promise<ConfigVersionRow> {
    const { ctx } = this;
    const now = ctx.clock.now();
    const stamp = now.toISOString();
    const id = randomUUID();
    const { diffFiles } = await loadDiff();
    await ctx.db.transaction().execute(async (trx) => {
      const notAfter = new Date(now.getTime() - PUSH_INTERVAL_SECONDS * 1000).toISOString();
      if (!(await takePushGate(trx, tenant, stamp, notAfter))) {
        const last = await lastPushAt(trx, tenant);
        const wait = last ? (new Date(last).getTime() + PUSH_INTERVAL_SECONDS * 1000 - now.getTime()) / 1000 : PUSH_INTERVAL_SECONDS;
        throw new TooManyRequests(wait, 'The configuration of this PBX may be pushed once a minute. Please retry later.');
      }
      // The gate's row is this transaction's now: version numbers cannot race.
      const version = await nextVersionNumber(trx, tenant);
      const base = await lastDoneVersion(trx, tenant);
      const { summary } = diffFiles(base ? filesOf(base) : [], compiled.files, base?.version ?? null);
      const manifest = manifestFile(compiled, { version, generatedAt: stamp, pbxId: tenant.pbxId });
      await insertVersion(trx, {
        id,
        pbx_id: tenant.pbxId,
        version,
        hash: compiled.hash,
        files: JSON.stringify(compiled.files),
        manifest: manifest.content,
        routing,
        diff_summary: JSON.stringify(summary),
        rollback_of: rollbackOf,
        status: 'queued',
        reason: null,
        engine: null,
        reloaded: '[]',
        principal_kind: principal.kind,
        principal_id: principal.id,
        user_id: principal.kind === 'user' ? principal.userId : null,
        job_id: null,
        created_at: stamp,
        updated_at: stamp,
        started_at: null,
        finished_at: null,
      });
      const jobId = await pushJob.enqueue(trx, ctx.clock, { pbxId: tenant.pbxId, pushId: id });
      await updateVersion(trx, tenant, id, { job_id: jobId });
      await recordAudit(trx, ctx.clock, {
        tenant,
        principal,
        action: rollbackOf === null ? 'configuration.pushed' : 'configuration.rolled_back',
        subject: { type: 'configuration_push', id },
        details: { version, hash: compiled.hash, rollback_of: rollbackOf, additions: summary.additions, deletions: summary.deletions },
        requestId,
      });
    });
    return (await findVersionById(ctx.db, tenant, id))!;
  }

  async get(tenant: Tenant, id: string): Promise<ConfigVersionRow> {
    const row = await findVersionById(this.ctx.db, tenant, id);
    if (!row) throw new NotFound('No such configuration push.');
    return row;
  }

  /** A version by its number (a path's text); one of another PBX is as absent as one that never was. */
  async version(tenant: Tenant, version: string): Promise<ConfigVersionRow> {
    const number = Number(version);
    const row = Number.isSafeInteger(number) && number <= 2_147_483_647 ? await findVersion(this.ctx.db, tenant, number) : undefined;
    if (!row) throw new NotFound('No such configuration version.');
    return row;
  }

  async status(tenant: Tenant) {
    const compiled = await this.compileNow(tenant);
    const last = await lastDoneVersion(this.ctx.db, tenant);
    const pending = await pendingVersion(this.ctx.db, tenant);
    return {
      last_pushed_version: last?.version ?? null,
      last_pushed_at: last?.finished_at ?? null,
      pushed_hash: last?.hash ?? null,
      current_hash: compiled.hash,
      has_unpushed_changes: !last || last.hash !== compiled.hash,
      pending_push: pending ? { id: pending.id, version: pending.version, status: pending.status as 'queued' | 'delivering' | 'reloading' } : null,
    };
  }
}
