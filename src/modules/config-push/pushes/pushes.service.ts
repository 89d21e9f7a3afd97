import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { AppContext } from '../../../platform/context.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { recordAudit } from '../../../platform/audit/audit.js';
import { NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/tenancy.js';
import {
  compileConfiguration,
  loadConfigurationSnapshot,
  manifestFile,
  openSecret,
  secretToken,
  type CompiledConfiguration,
  type ConfigFile,
  type ConfigurationSnapshot,
  type SealedSecret,
} from '../compiler/index.js';
import type { DiffSummary } from '../diff.js';
import { routingSnapshot } from '../../routing/index.js';
import type { ConfigVersionRow } from '../versions/versions.queries.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { ConfigPushStatus, ConfigVersionTable } from '../config-push.tables.js';
import type { PushRow } from '../config-push.presenter.js';
import {
  findVersion,
  findVersionById,
  insertVersion,
  lastDoneVersion,
  lastPushAt,
  listVersions,
  nextVersionNumber,
  pendingVersion,
  takePushGate,
  updateVersion,
} from '../versions/versions.queries.js';
import { pushJob } from './push-job.js';
import { publishPushProgress } from './pushes.events.js';
import { PUSH_INTERVAL_SECONDS, PushTooSoon } from './push-limit.js';

export type { ConfigVersionRow };

export const filesOf = (row: ConfigVersionRow): ConfigFile[] => JSON.parse(row.files) as ConfigFile[];

/** The dry run's answer: the files compiled now and how they differ from what the PBX runs. */
export interface DryRun {
  hash: string;
  has_changes: boolean;
  files: Array<{ name: string; sha256: string; bytes: number; content: string; status: DiffSummary['files'][number]['status'] }>;
  manifest: string;
  diff: string;
  diff_summary: DiffSummary;
  problems: ConfigurationProblem[];
}

/**
 * A value the configuration cannot carry, named by the resource it belongs to. The API refuses
 * such values when they are written (`PbxText`, `PbxSecret`); secrets stored before that (sealed, so
 * no migration could read them) are found here, when they are opened for the configuration.
 */
export interface ConfigurationProblem {
  /** `file` when no resource of the PBX holds the secret any more (the files of an earlier version). */
  resource: 'sip_device' | 'webrtc_account' | 'file';
  /** The SIP device's id, the WebRTC account's user id, or the file's name. */
  id: string;
  name: string;
  field: 'secret' | 'password' | 'voicemail_pin';
  /** What is wrong with the value, e.g. `contains a line break`. */
  problem: string;
  /** The whole sentence, as a refused push gives it. */
  message: string;
}

type SecretOwner = Pick<ConfigurationProblem, 'resource' | 'id' | 'name' | 'field'>;

/** Who holds each sealed secret the compiler may write, by its token. */
function secretOwners(snapshot: ConfigurationSnapshot): Map<string, SecretOwner> {
  const owners = new Map<string, SecretOwner>();
  for (const device of snapshot.sipDevices)
    owners.set(secretToken(device.secretSealed), { resource: 'sip_device', id: device.id, name: device.name, field: 'secret' });
  const users = new Map(snapshot.users.map((user) => [user.id, `${user.firstName} ${user.lastName}`.trim()]));
  for (const account of snapshot.webrtcAccounts) {
    const owner = { resource: 'webrtc_account' as const, id: account.userId, name: users.get(account.userId) || account.username };
    owners.set(secretToken(account.passwordSealed), { ...owner, field: 'password' });
    if (account.voicemailPinSealed) owners.set(secretToken(account.voicemailPinSealed), { ...owner, field: 'voicemail_pin' });
  }
  return owners;
}

// eslint-disable-next-line no-control-regex
const LINE_BREAK = /[\n\r\u000b\u000c\u0085\u2028\u2029]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Why the compiler's check (`openSecret`: the same one the delivery makes) refused an opened secret. */
function whatIsWrong(plain: string, kind: SealedSecret['kind']): string {
  if (LINE_BREAK.test(plain)) return 'contains a line break';
  if (CONTROL.test(plain)) return 'contains a control character';
  if (kind === 'pin') return 'is not 4 to 12 digits';
  if (plain.length === 0) return 'is empty';
  if (plain.length > 256) return 'is longer than 256 characters';
  if (plain !== plain.trim()) return 'begins or ends with white space';
  return 'begins with a backslash';
}

const FIELD_NAMES: Record<ConfigurationProblem['field'], string> = { secret: 'secret', password: 'password', voicemail_pin: 'voicemail PIN' };

function problemMessage(owner: SecretOwner, problem: string): string {
  const field = FIELD_NAMES[owner.field];
  if (owner.resource === 'sip_device') return `The ${field} of the SIP device "${owner.name}" (${owner.id}) ${problem}: set a new one.`;
  if (owner.resource === 'webrtc_account') return `The ${field} of the WebRTC account of ${owner.name} (user ${owner.id}) ${problem}: set a new one.`;
  return `A ${field} in ${owner.name} ${problem}.`;
}

/**
 * Every sealed secret the files carry, opened and checked as the delivery will (`openSecret`):
 * those it would refuse, each named by the resource that holds it.
 */
export function undeliverableSecrets(files: ConfigFile[], owners: Map<string, SecretOwner>, open: (sealed: string) => string): ConfigurationProblem[] {
  const problems: ConfigurationProblem[] = [];
  const seen = new Set<string>();
  for (const file of files)
    for (const secret of file.secrets ?? []) {
      if (seen.has(secret.token)) continue;
      seen.add(secret.token);
      let problem: string | null;
      try {
        const plain = open(secret.sealed);
        problem = openSecret(secret, () => plain) === null ? whatIsWrong(plain, secret.kind) : null;
      } catch {
        problem = 'cannot be opened with the key this server holds';
      }
      if (problem === null) continue;
      const owner = owners.get(secret.token) ?? {
        resource: 'file',
        id: file.name,
        name: file.name,
        field: secret.kind === 'pin' ? 'voicemail_pin' : 'password',
      };
      problems.push({ ...owner, problem, message: problemMessage(owner, problem) });
    }
  return problems;
}

/** A push of files the delivery would refuse: 422 naming each resource, before a version is made. */
function refuseUndeliverable(problems: ConfigurationProblem[]): void {
  if (problems.length === 0) return;
  throw new ValidationFailed({ configuration: problems.map((p) => p.message) }, undefined, { problems });
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

  /** The configuration as the data says now, and the values in it the delivery would refuse. */
  private async compileChecked(tenant: Tenant): Promise<{ compiled: CompiledConfiguration; problems: ConfigurationProblem[] }> {
    const snapshot = await loadConfigurationSnapshot(this.ctx.db, tenant);
    const compiled = compileConfiguration(snapshot);
    return { compiled, problems: this.problemsOf(compiled.files, snapshot) };
  }

  private problemsOf(files: ConfigFile[], snapshot: ConfigurationSnapshot): ConfigurationProblem[] {
    return undeliverableSecrets(files, secretOwners(snapshot), (sealed) => this.ctx.secrets.open(sealed));
  }

  async dryRun(tenant: Tenant): Promise<DryRun> {
    const { compiled, problems } = await this.compileChecked(tenant);
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
      problems,
    };
  }

  /** Compiles now and pushes the result; 422 naming each value the delivery would refuse. */
  async push(tenant: Tenant, principal: Principal, requestId: string | null): Promise<ConfigVersionRow> {
    const { compiled, problems } = await this.compileChecked(tenant);
    refuseUndeliverable(problems);
    return this.enqueue(tenant, principal, requestId, compiled, null, await routingSnapshot(this.ctx.db, tenant));
  }

  /** Pushes an earlier version's files again, as a new version. */
  async rollback(tenant: Tenant, principal: Principal, requestId: string | null, version: string): Promise<ConfigVersionRow> {
    const target = await this.version(tenant, version);
    const files = filesOf(target);
    // The version's secrets as sealed then, named by the resources that still hold them.
    if (files.some((file) => file.secrets?.length)) refuseUndeliverable(this.problemsOf(files, await loadConfigurationSnapshot(this.ctx.db, tenant)));
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
        throw new PushTooSoon(wait);
      }
      // The gate's row is this transaction's now: version numbers cannot race.
      const version = await nextVersionNumber(trx, tenant);
      const base = await lastDoneVersion(trx, tenant);
      const { summary } = diffFiles(base ? filesOf(base) : [], compiled.files, base?.version ?? null);
      const manifest = manifestFile(compiled, { version, generatedAt: stamp, pbxId: tenant.pbxId });
      const row: Insertable<ConfigVersionTable> & PushRow = {
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
      };
      await insertVersion(trx, row);
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
      await publishPushProgress(ctx, trx, tenant, row);
    });
    return (await findVersionById(ctx.db, tenant, id))!;
  }

  async get(tenant: Tenant, id: string): Promise<ConfigVersionRow> {
    const row = await findVersionById(this.ctx.db, tenant, id);
    if (!row) throw new NotFound('No such configuration push.');
    return row;
  }

  /** A page of the PBX's versions (every push made one), by `status` when given. */
  versions(tenant: Tenant, filters: { status?: ConfigPushStatus }, sort: SortTerm[], page: PageRequest) {
    return listVersions(this.ctx.db, tenant, filters, sort, page);
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
