/**
 * Writes a tenant's configuration files on an Asterisk PBX over AMI and reloads the modules that
 * read them, so that the PBX ends running either the new version or the one before, never a mix.
 *
 * The files are the tenant's own (`pbxapi-<type>-<prefix>.conf`, platform/pbx-names): the host's
 * `pjsip.conf`, `extensions.conf`, `queues.conf`, `voicemail.conf` and `musiconhold.conf` keep
 * the operator's transports, trunk and settings and read every tenant's file with a
 * `#tryinclude "pbxapi-<type>-*.conf"` line (README, "The operator's Asterisk"). Nothing here
 * writes a host file, so a push or a rollback never removes what the operator configured, and
 * several tenants on one Asterisk each keep their own files.
 *
 * Asterisk's `UpdateConfig` (main/manager.c, action_updateconfig) loads `SrcFilename`, applies the
 * numbered `Action-NNNNNN` edits (NewCat, Append, ...) and saves the result as `DstFilename`, all
 * or nothing per action. A manager message holds at most 128 headers (AST_MAX_MANHEADERS) and a
 * line at most 1024 bytes (the session's input buffer). Its writer escapes a `;` in a value
 * itself, so values are sent plain. The steps:
 *
 *   1. `CreateConfig` of `pbxapi-empty.conf` (an empty source), and of each file's staging, live
 *      and previous name: UpdateConfig refuses a source or destination that does not exist yet
 *      ("File requires escalated privileges"); CreateConfig never touches an existing file
 *      ("File exists"). A live file created now was never read: its module is reloaded too.
 *   2. Every file is staged: `UpdateConfig pbxapi-empty.conf -> pbxapi-staging-…` with the first
 *      sections' edits, then `staging -> staging` with the rest. Nothing is live yet.
 *   3. Each live file is kept as `pbxapi-previous-…`, then each staging file replaces its live file
 *      in one save.
 *   4. `Reload` of each module whose file changed; a module that declined at start (app_queue
 *      without queues.conf: "Module not initialized") is loaded (`ModuleLoad`) instead.
 *   5. What Asterisk loaded is checked: the tenant's dialplan context, each endpoint, each queue.
 *
 * A refusal in steps 4-5 puts the previous files back and reloads again, then fails the push with
 * the reason: the PBX runs the version it ran before.
 */
import type { Config } from '../../../../config.js';
import { AmiError, answerText, type AmiClient, type AmiTraceEntry } from './client.js';
import { connectAmi } from './host-guard.js';
import type { AmiFields, AmiMessage } from './protocol.js';
import { hostFileName } from '../../../../platform/pbx-names.js';

/** A line of a section: `key = value`, or `key => value` when `object` (exten, same, include). */
export interface DeliveredLine {
  key: string;
  value: string;
  object?: boolean;
}

/** A `[name]` category of a configuration file; a template (`(!)`) or inheriting from templates. */
export interface DeliveredSection {
  name: string;
  template?: boolean;
  inherits?: string[];
  lines: DeliveredLine[];
}

export interface DeliveredFile {
  name: string;
  sections: DeliveredSection[];
}

export interface AmiDeliveryTarget {
  host: string;
  port: number;
  username: string;
  secret: string;
  /** The tenant's prefix: its files' and contexts' names on the PBX. */
  prefix: string;
}

export interface AmiDeliveryHooks {
  /** Called once every file is written, before the first reload. */
  onReloading?(): Promise<void>;
  /**
   * Aborted when another delivery took this one's turn: checked between the staging actions and
   * before the files go live, so a delivery that lost its turn never replaces a live file. Once
   * the files are live it runs to the end (reloads, checks), leaving the PBX consistent.
   */
  signal?: AbortSignal;
}

/** The module that reads each file Asterisk is given, reloaded when its file changed. */
export const RELOAD_MODULES: Record<string, string> = {
  'extensions.conf': 'pbx_config.so',
  'pjsip.conf': 'res_pjsip.so',
  'queues.conf': 'app_queue.so',
  'voicemail.conf': 'app_voicemail.so',
  'musiconhold.conf': 'res_musiconhold.so',
};

export const EMPTY_SOURCE = 'pbxapi-empty.conf';
/** The staged and the kept-back copies of a host file: `pbxapi-staging-pjsip-t….conf`, never matched by the host's include pattern. */
export const stagingName = (hostFile: string) => copyName('staging', hostFile);
export const previousName = (hostFile: string) => copyName('previous', hostFile);
const copyName = (kind: string, hostFile: string) => `pbxapi-${kind}-${hostFile.replace(/^pbxapi-/, '')}`;

/** Headers of a manager message Asterisk reads (AST_MAX_MANHEADERS); the rest are dropped silently. */
export const MAX_HEADERS = 128;
/** Bytes of one line Asterisk reads (its input buffer holds 1024 plus the terminator); CRLF included. */
export const MAX_LINE_BYTES = 1024;
/** Action, ActionID, SrcFilename, DstFilename, PreserveEffectiveContext. */
const FIXED_HEADERS = 5;

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*\.conf$/;

/**
 * The sections with their templates written out: Asterisk's Append finds no template category
 * (config.c, does_category_match: without a `TEMPLATES=` filter a template never matches, and
 * action_updateconfig's `catfilter=` option keeps only the text before the second `=`, so no
 * filter can name them), so a template's lines could never be sent. A category inheriting from
 * templates starts with their variables, in order, then its own: written out, it reads the same.
 */
export function withoutTemplates(sections: DeliveredSection[]): DeliveredSection[] {
  const templates = new Map(sections.filter((section) => section.template).map((section) => [section.name, section]));
  const inherited = (names: string[], trail: string[]): DeliveredLine[] =>
    names.flatMap((name) => {
      const template = templates.get(name);
      if (!template) throw new AmiError('rejected', `Template ${name} is not defined in the file.`);
      if (trail.includes(name)) throw new AmiError('rejected', `Template ${name} inherits from itself.`);
      return [...inherited(template.inherits ?? [], [...trail, name]), ...template.lines];
    });
  return sections
    .filter((section) => !section.template)
    .map((section) => ({ name: section.name, lines: [...inherited(section.inherits ?? [], []), ...section.lines] }));
}

/**
 * The edits that build `file` from an empty one: NewCat for each section, Append for each line.
 * Append edits every category of its name, and pjsip.conf names an endpoint and its AOR alike: a
 * section whose name came before is built under a name of its own, then renamed (RenameCat).
 */
export function fileEdits(file: DeliveredFile): Array<Array<[string, string]>> {
  const edits: Array<Array<[string, string]>> = [];
  const seen = new Set<string>();
  withoutTemplates(file.sections).forEach((section, index) => {
    const repeated = seen.has(section.name);
    seen.add(section.name);
    const cat = repeated ? `${section.name}~pbxapi-${index}` : section.name;
    edits.push([
      ['Action', 'NewCat'],
      ['Cat', cat],
    ]);
    for (const line of section.lines) {
      // A value starting with '>' marks an object line (`key => value`) to action_updateconfig.
      edits.push([
        ['Action', 'Append'],
        ['Cat', cat],
        ['Var', line.key],
        ['Value', line.object ? `>${line.value}` : line.value],
      ]);
    }
    if (repeated)
      edits.push([
        ['Action', 'RenameCat'],
        ['Cat', cat],
        ['Value', section.name],
      ]);
  });
  return edits;
}

/**
 * The UpdateConfig actions that write `file` (see the file's comment): each within the header
 * limit, each line within Asterisk's line length. A line that cannot be sent is refused before
 * anything is written.
 */
export function updateConfigActions(file: DeliveredFile, hostFile: string = file.name): AmiFields[] {
  if (!FILE_NAME.test(hostFile)) throw new AmiError('rejected', `The file name ${hostFile} cannot be written over AMI.`);
  const staging = stagingName(hostFile);
  const actions: AmiFields[] = [];
  let current: AmiFields | null = null;
  let count = 0;
  const start = (source: string) => {
    current = [
      ['Action', 'UpdateConfig'],
      ['SrcFilename', source],
      ['DstFilename', staging],
      ['PreserveEffectiveContext', 'no'],
    ];
    count = 0;
    actions.push(current);
  };
  start(EMPTY_SOURCE);
  for (const edit of fileEdits(file)) {
    if (FIXED_HEADERS + (current!.length - 4) + edit.length > MAX_HEADERS) start(staging);
    const n = String(count++).padStart(6, '0');
    for (const [key, value] of edit) {
      const header = `${key}-${n}`;
      const bytes = Buffer.byteLength(`${header}: ${value}\r\n`);
      if (bytes > MAX_LINE_BYTES) {
        throw new AmiError(
          'rejected',
          `A line of ${file.name} ([${edit[1][1]}] ${key}) is ${bytes} bytes long, more than Asterisk's manager reads (${MAX_LINE_BYTES}).`,
        );
      }
      if (/[\r\n]/.test(value)) throw new AmiError('rejected', `A value of ${file.name} ([${edit[1][1]}]) holds a line break.`);
      current!.push([header, value]);
    }
  }
  return actions;
}

/** The UpdateConfig that copies one whole file onto another, without edits. */
export const copyConfigAction = (source: string, destination: string): AmiFields => [
  ['Action', 'UpdateConfig'],
  ['SrcFilename', source],
  ['DstFilename', destination],
  ['PreserveEffectiveContext', 'no'],
];

async function expectSuccess(client: AmiClient, fields: AmiFields, what: string, accept?: (message: string) => boolean): Promise<string> {
  const { response } = await client.action(fields);
  const message = response.get('Message') ?? '';
  if (response.get('Response')?.toLowerCase() === 'success' || accept?.(message)) return message;
  throw new AmiError('rejected', `${what}: the PBX answered ${answerText(message || (response.get('Response') ?? 'nothing'))}.`);
}

export interface AmiDeliveryResult {
  written: string[];
  reloaded: string[];
  trace: AmiTraceEntry[];
}

/** What Asterisk must show once the files are read: the tenant's names, by module. */
interface ExpectedObjects {
  contexts: string[];
  endpoints: string[];
  queues: string[];
}

function expectedObjects(files: DeliveredFile[], prefix: string): ExpectedObjects {
  const sectionsOf = (name: string) => withoutTemplates(files.find((file) => file.name === name)?.sections ?? []);
  const dialplan = sectionsOf('extensions.conf');
  return {
    contexts: dialplan.some((section) => section.name === prefix) ? [prefix] : dialplan.slice(0, 1).map((section) => section.name),
    endpoints: sectionsOf('pjsip.conf')
      .filter((section) => section.lines.some((line) => line.key === 'type' && line.value === 'endpoint'))
      .map((section) => section.name),
    queues: sectionsOf('queues.conf').map((section) => section.name),
  };
}

/** Reloads a module; one that declined at start ("Module not initialized") is loaded instead. */
async function reloadModule(client: AmiClient, module: string): Promise<void> {
  const { response } = await client.action([
    ['Action', 'Reload'],
    ['Module', module],
  ]);
  if (response.get('Response')?.toLowerCase() === 'success') return;
  const message = response.get('Message') ?? response.get('Response') ?? 'nothing';
  if (!/not initialized|not running/i.test(message)) throw new AmiError('rejected', `Reloading ${module}: the PBX answered ${answerText(message)}.`);
  const loaded = await client.action([
    ['Action', 'ModuleLoad'],
    ['Module', module],
    ['LoadType', 'load'],
  ]);
  if (loaded.response.get('Response')?.toLowerCase() === 'success') return;
  const hint = module === 'app_queue.so' ? ' Asterisk declines app_queue while the host has no queues.conf: create it as the README shows.' : '';
  throw new AmiError(
    'rejected',
    `${module} is not running on the PBX (it declined to load at start) and loading it failed: ${answerText(loaded.response.get('Message') ?? 'no answer')}.${hint}`,
  );
}

/** A check Asterisk refused for another reason than the answer `absent` (a missing class: "Permission denied"). */
function refusedCheck(response: AmiMessage, what: string, absent: string): void {
  const message = response.get('Message') ?? '';
  if (message.startsWith(absent)) return;
  throw new AmiError(
    'rejected',
    `Checking ${what} Asterisk loaded: the PBX answered ${answerText(message || 'nothing')} (the AMI user needs the config and system write classes, README "The operator's Asterisk").`,
  );
}

/**
 * Checks that Asterisk really read the tenant's files: a file the host does not include is
 * written and reloaded without a complaint, and runs nothing.
 */
async function verifyLoaded(client: AmiClient, expected: ExpectedObjects, modules: readonly string[], prefix: string): Promise<void> {
  const include = (type: string) => `the host's ${type}.conf must read it with #tryinclude "pbxapi-${type}-*.conf" (README, "The operator's Asterisk")`;
  if (modules.includes('pbx_config.so')) {
    for (const context of expected.contexts) {
      const { response } = await client.action([
        ['Action', 'ShowDialPlan'],
        ['Context', context],
      ]);
      if (response.get('Response')?.toLowerCase() !== 'success') {
        refusedCheck(response, 'the dialplan', 'Did not find context');
        throw new AmiError(
          'rejected',
          `Asterisk did not load the dialplan context ${context} from ${hostFileName('extensions.conf', prefix)}: ${include('extensions')}.`,
        );
      }
    }
  }
  if (modules.includes('res_pjsip.so') && expected.endpoints.length) {
    const { response, events } = await client.action([['Action', 'PJSIPShowEndpoints']]);
    if (response.get('Response')?.toLowerCase() !== 'success') refusedCheck(response, 'the endpoints', 'No endpoints found');
    const loaded = new Set(events.map((event) => event.get('ObjectName')));
    const missing = expected.endpoints.filter((name) => !loaded.has(name));
    if (missing.length === expected.endpoints.length) {
      throw new AmiError('rejected', `Asterisk did not load the endpoints of ${hostFileName('pjsip.conf', prefix)}: ${include('pjsip')}.`);
    }
    if (missing.length) {
      throw new AmiError(
        'rejected',
        `Asterisk did not load the endpoints ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''} (see its log: a name the host or another file also defines?).`,
      );
    }
  }
  if (modules.includes('app_queue.so') && expected.queues.length) {
    const { events } = await client.action([['Action', 'QueueSummary']]);
    const loaded = new Set(events.map((event) => event.get('Queue')));
    const missing = expected.queues.filter((name) => !loaded.has(name));
    if (missing.length) throw new AmiError('rejected', `Asterisk did not load the queues of ${hostFileName('queues.conf', prefix)}: ${include('queues')}.`);
  }
}

/**
 * Writes `files` (by their names in the version: `pjsip.conf`, ...) as the tenant's host files and
 * reloads the modules of `changed` files and of files written for the first time. Throws
 * AmiError: `rejected` when the PBX refused an action or did not load the files (the push failed
 * for good, the previous files back in place), any other kind when the PBX could not be reached
 * or stopped answering (worth another attempt).
 */
export async function deliverConfigurationOverAmi(
  config: Pick<Config, 'amiConnectTimeoutMs' | 'amiActionTimeoutMs' | 'amiAllowedHosts' | 'amiAllowLoopback'>,
  target: AmiDeliveryTarget,
  files: DeliveredFile[],
  changed: readonly string[],
  hooks: AmiDeliveryHooks = {},
): Promise<AmiDeliveryResult> {
  // Everything is checked before the first byte goes out.
  const plans = files.map((file) => {
    const hostFile = hostFileName(file.name, target.prefix);
    return { file, hostFile, actions: updateConfigActions(file, hostFile) };
  });
  const client = await connectAmi(config, target, { trace: true });
  try {
    await client.login(target.username, target.secret);
    const create = (name: string) =>
      expectSuccess(
        client,
        [
          ['Action', 'CreateConfig'],
          ['Filename', name],
        ],
        `Creating ${name}`,
        (message) => message === 'File exists',
      );
    await create(EMPTY_SOURCE);
    const neverRead = new Set<string>();
    for (const { file, hostFile, actions } of plans) {
      await create(stagingName(hostFile));
      await create(previousName(hostFile));
      if ((await create(hostFile)) !== 'File exists') neverRead.add(file.name);
      for (const action of actions) {
        hooks.signal?.throwIfAborted();
        await expectSuccess(client, action, `Staging ${hostFile}`);
      }
    }
    hooks.signal?.throwIfAborted();
    for (const { hostFile } of plans) await expectSuccess(client, copyConfigAction(hostFile, previousName(hostFile)), `Keeping ${hostFile}`);
    for (const { hostFile } of plans) await expectSuccess(client, copyConfigAction(stagingName(hostFile), hostFile), `Writing ${hostFile}`);
    await hooks.onReloading?.();
    const modulesOf = (names: Iterable<string>) => [...new Set([...names].map((name) => RELOAD_MODULES[name]).filter((module): module is string => !!module))];
    const modules = modulesOf([...changed, ...neverRead]);
    const reloaded: string[] = [];
    try {
      for (const module of modules) {
        await reloadModule(client, module);
        // A module whose reload failed still runs what it read before: only these read the new files.
        reloaded.push(module);
      }
      await verifyLoaded(client, expectedObjects(files, target.prefix), modules, target.prefix);
    } catch (error) {
      if (!(error instanceof AmiError) || error.kind !== 'rejected') throw error;
      throw new AmiError('rejected', `${error.message} ${await restorePrevious(client, plans, reloaded)}`);
    }
    await client.logoff();
    return { written: plans.map((plan) => plan.hostFile), reloaded: modules, trace: client.trace };
  } catch (error) {
    client.close();
    throw error;
  }
}

/** Puts the kept-back files in place again and reloads what was reloaded; says how that went. */
async function restorePrevious(client: AmiClient, plans: Array<{ hostFile: string }>, reloaded: readonly string[]): Promise<string> {
  try {
    for (const { hostFile } of plans) await expectSuccess(client, copyConfigAction(previousName(hostFile), hostFile), `Restoring ${hostFile}`);
    for (const module of reloaded) await reloadModule(client, module);
    return 'The previous configuration was restored and runs.';
  } catch (error) {
    return `Restoring the previous configuration failed too (${(error as Error).message}): the PBX may run parts of this version.`;
  }
}
