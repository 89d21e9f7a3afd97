import { sha256 } from '../../../platform/crypto.js';
import { commentText, secretValue, pin } from './escape.js';

/** One line of a section. `object: true` renders `key => value` (exten, include, same). */
export interface ConfigLine {
  key: string;
  value: string;
  object?: boolean;
}
export interface ConfigSection {
  name: string;
  template?: boolean;
  inherits?: string[];
  lines: ConfigLine[];
  comment?: string;
}
/**
 * A secret in a file, by the token that stands for it. `content` (what is hashed, stored and
 * diffed) carries the token; `deliverableContent` swaps in the opened secret for the PBX only.
 */
export interface SealedSecret {
  token: string;
  sealed: string;
  /** `password`: any text, `;` escaped; `pin`: digits only. */
  kind: 'password' | 'pin';
}
export interface ConfigFile {
  name: string;
  sections: ConfigSection[];
  content: string;
  sha256: string;
  secrets?: SealedSecret[];
}
/** Files sorted by name; `hash` is the sha256 over the names and the file hashes. */
export interface CompiledConfiguration {
  files: ConfigFile[];
  hash: string;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * The last guard of the line structure: whatever the compiler built, a name, key or value with a
 * control character (a line break) is a bug, never written. Names may not hold what closes or
 * reopens a section header either.
 */
function assertLine(what: string, text: string): void {
  if (CONTROL.test(text)) throw new Error(`Configuration ${what} with a control character: ${JSON.stringify(text)}`);
}

/**
 * Asterisk's configuration syntax (main/config.c): `[name]`, `[name](!)` for a template,
 * `[name](template,...)` to inherit, `key = value` and `key => value` (an object line: the
 * dialplan's `exten`, `same`, `include`; queues' `member`). Comments (`; ...`) above a section.
 */
export function renderConfig(sections: ConfigSection[], options: { header?: string } = {}): string {
  const out: string[] = [];
  if (options.header) for (const line of options.header.split('\n')) out.push(`; ${commentText(line, 200)}`.trimEnd());
  for (const section of sections) {
    if (out.length) out.push('');
    assertLine('section name', section.name);
    if (/[[\]();\s]/.test(section.name)) throw new Error(`Invalid section name: ${JSON.stringify(section.name)}`);
    if (section.comment) for (const line of section.comment.split('\n')) out.push(`; ${commentText(line, 200)}`.trimEnd());
    const options = [...(section.template ? ['!'] : []), ...(section.inherits ?? [])];
    out.push(`[${section.name}]${options.length ? `(${options.join(',')})` : ''}`);
    for (const line of section.lines) {
      assertLine('key', line.key);
      assertLine('value', line.value);
      out.push(`${line.key} ${line.object ? '=>' : '='} ${line.value}`);
    }
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

/** The token standing for a sealed secret: stable for the same sealed value, revealing nothing. */
export function secretToken(sealed: string): string {
  return `pbxapi-sealed-${sha256(sealed).slice(0, 24)}`;
}

/** What `secretToken` makes: the tokens a file's text holds are found in one pass over it. */
const SECRET_TOKENS = /pbxapi-sealed-[0-9a-f]{24}/g;
const SECRET_TOKEN = /^pbxapi-sealed-[0-9a-f]{24}$/;

export function configFile(name: string, sections: ConfigSection[], secrets: SealedSecret[] = [], header?: string): ConfigFile {
  const content = renderConfig(sections, { header });
  // One scan of the text, not one per secret: 5,000 devices' secrets searched one by one in a
  // pjsip.conf of several MB took seconds.
  const present = new Set(content.match(SECRET_TOKENS));
  const inContent = (token: string) => (SECRET_TOKEN.test(token) ? present.has(token) : content.includes(token));
  const used = secrets.filter((s) => inContent(s.token)).sort((a, b) => (a.token < b.token ? -1 : a.token > b.token ? 1 : 0));
  const unique = used.filter((s, i) => i === 0 || used[i - 1].token !== s.token);
  return { name, sections, content, sha256: sha256(content), ...(unique.length ? { secrets: unique } : {}) };
}

export function configurationHash(files: ConfigFile[]): string {
  return sha256(files.map((f) => `${f.name}\n${f.sha256}\n`).join(''));
}

/**
 * A secret's opened value, checked for its place: `written` as it stands in the file's text (a
 * `;` escaped as `\;`), `plain` as a value the PBX's own config writer saves (over AMI: Asterisk
 * escapes the `;` itself when it writes the file, so an escape here would be read back as part of
 * the secret). Null when it cannot be written safely (a line break in a SIP password, a PIN that
 * is not digits).
 */
export function openSecret(secret: SealedSecret, open: (sealed: string) => string): { plain: string; written: string } | null {
  const plain = open(secret.sealed);
  if (secret.kind === 'pin') return pin(plain) === null ? null : { plain, written: plain };
  const written = secretValue(plain);
  return written === null ? null : { plain, written };
}

/**
 * The file as the PBX gets it: every secret token replaced by the opened secret, escaped for its
 * place. A secret that cannot be written safely is an error: the push fails rather than write a
 * broken or injected line.
 */
export function deliverableContent(file: ConfigFile, open: (sealed: string) => string): string {
  let content = file.content;
  for (const secret of file.secrets ?? []) {
    const value = openSecret(secret, open);
    if (value === null) throw new Error(`A ${secret.kind} in ${file.name} cannot be written safely into the configuration.`);
    content = content.split(secret.token).join(value.written);
  }
  return content;
}

export function manifestFile(compiled: CompiledConfiguration, meta: { version: number; generatedAt: string; pbxId: string }): ConfigFile {
  const manifest = {
    version: meta.version,
    pbx_id: meta.pbxId,
    generated_at: meta.generatedAt,
    hash: compiled.hash,
    files: compiled.files.map((f) => ({ name: f.name, sha256: f.sha256, bytes: Buffer.byteLength(f.content) })),
  };
  const content = `${JSON.stringify(manifest, null, 2)}\n`;
  return { name: 'manifest.json', sections: [], content, sha256: sha256(content) };
}
