/**
 * Writes configuration files on an Asterisk PBX over AMI and reloads the modules that read them.
 *
 * Asterisk's `UpdateConfig` (main/manager.c, action_updateconfig) loads `SrcFilename`, applies the
 * numbered `Action-NNNNNN` edits (NewCat, Append, ...) and saves the result as `DstFilename`, all
 * or nothing per action. A manager message holds at most 128 headers (AST_MAX_MANHEADERS) and a
 * line at most 1024 bytes (the session's input buffer), so a file is built in steps:
 *
 *   1. `CreateConfig` of `pbxapi-empty.conf` (an empty source), and of each file's staging and live
 *      name: UpdateConfig refuses a source or destination that does not exist yet ("File requires
 *      escalated privileges": is_restricted_file's realpath() fails), and CreateConfig
 *      (O_CREAT|O_EXCL) never touches an existing file, answering "File exists", which is fine.
 *   2. `UpdateConfig pbxapi-empty.conf -> pbxapi-staging-<file>` with the first sections' edits,
 *      then `UpdateConfig staging -> staging` with the rest, as many as the header limit needs.
 *   3. `UpdateConfig staging -> <file>` without edits: the complete file replaces the live one in
 *      one save, so a failure in step 2 never leaves a half-written live file.
 *
 * Then `Reload` with `Module: <module>` for each module whose file changed, each answer checked
 * (`Module Reloaded`, else the error Asterisk gives: "No such module", ...).
 */
import type { Config } from '../../../../config.js';
import { AmiError, type AmiClient, type AmiTraceEntry } from './client.js';
import { connectAmi } from './host-guard.js';
import type { AmiFields } from './protocol.js';

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
}

export interface AmiDeliveryHooks {
  /** Called once every file is written, before the first reload. */
  onReloading?(): Promise<void>;
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
export const stagingName = (file: string) => `pbxapi-staging-${file}`;

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
export function updateConfigActions(file: DeliveredFile): AmiFields[] {
  if (!FILE_NAME.test(file.name)) throw new AmiError('rejected', `The file name ${file.name} cannot be written over AMI.`);
  const staging = stagingName(file.name);
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
  actions.push([
    ['Action', 'UpdateConfig'],
    ['SrcFilename', staging],
    ['DstFilename', file.name],
    ['PreserveEffectiveContext', 'no'],
  ]);
  return actions;
}

async function expectSuccess(client: AmiClient, fields: AmiFields, what: string, accept?: (message: string) => boolean): Promise<string> {
  const { response } = await client.action(fields);
  const message = response.get('Message') ?? '';
  if (response.get('Response')?.toLowerCase() === 'success' || accept?.(message)) return message;
  throw new AmiError('rejected', `${what}: the PBX answered ${message || (response.get('Response') ?? 'nothing')}.`);
}

export interface AmiDeliveryResult {
  written: string[];
  reloaded: string[];
  trace: AmiTraceEntry[];
}

/**
 * Writes `files` and reloads the modules of `changed` files (their names). Throws AmiError:
 * `rejected` when the PBX refused an action (the push failed for good), any other kind when the
 * PBX could not be reached or stopped answering (worth another attempt).
 */
export async function deliverConfigurationOverAmi(
  config: Pick<Config, 'amiConnectTimeoutMs' | 'amiActionTimeoutMs' | 'amiAllowedHosts' | 'amiAllowLoopback'>,
  target: AmiDeliveryTarget,
  files: DeliveredFile[],
  changed: readonly string[],
  hooks: AmiDeliveryHooks = {},
): Promise<AmiDeliveryResult> {
  // Everything is checked before the first byte goes out.
  const plans = files.map((file) => ({ file, actions: updateConfigActions(file) }));
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
    for (const { file, actions } of plans) {
      await create(stagingName(file.name));
      await create(file.name);
      for (const action of actions) await expectSuccess(client, action, `Writing ${file.name}`);
    }
    await hooks.onReloading?.();
    const modules = [...new Set(changed.map((name) => RELOAD_MODULES[name]).filter((module): module is string => !!module))];
    for (const module of modules) {
      await expectSuccess(
        client,
        [
          ['Action', 'Reload'],
          ['Module', module],
        ],
        `Reloading ${module}`,
      );
    }
    await client.logoff();
    return { written: files.map((file) => file.name), reloaded: modules, trace: client.trace };
  } catch (error) {
    client.close();
    throw error;
  }
}
