import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { sha256 } from '../../../platform/crypto.js';
import type { Tenant } from '../../../platform/tenancy.js';

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
export interface ConfigFile {
  name: string;
  sections: ConfigSection[];
  content: string;
  sha256: string;
}
/** Files sorted by name; `hash` is the sha256 over the names and the file hashes. */
export interface CompiledConfiguration {
  files: ConfigFile[];
  hash: string;
}

/** Everything the compiler reads, as plain data (no database handle). Filled in by the next commits. */
export interface ConfigurationSnapshot {
  pbx: { id: string; name: string; timezone: string; countryCode: string };
}

export async function loadConfigurationSnapshot(db: Kysely<DB>, tenant: Tenant): Promise<ConfigurationSnapshot> {
  const pbx = await db.selectFrom('pbxes').select(['id', 'name', 'timezone', 'country_code']).where('id', '=', tenant.pbxId).executeTakeFirstOrThrow();
  return { pbx: { id: pbx.id, name: pbx.name, timezone: pbx.timezone, countryCode: pbx.country_code } };
}

export function renderConfig(sections: ConfigSection[]): string {
  const out: string[] = [];
  for (const section of sections) {
    if (out.length) out.push('');
    if (section.comment) for (const line of section.comment.split('\n')) out.push(`; ${line}`);
    const options = [...(section.template ? ['!'] : []), ...(section.inherits ?? [])];
    out.push(`[${section.name}]${options.length ? `(${options.join(',')})` : ''}`);
    for (const line of section.lines) out.push(`${line.key} ${line.object ? '=>' : '='} ${line.value}`);
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

function file(name: string, sections: ConfigSection[]): ConfigFile {
  const content = renderConfig(sections);
  return { name, sections, content, sha256: sha256(content) };
}

function hashOf(files: ConfigFile[]): string {
  return sha256(files.map((f) => `${f.name}\n${f.sha256}\n`).join(''));
}

export function compileConfiguration(snapshot: ConfigurationSnapshot): CompiledConfiguration {
  void snapshot;
  const files = ['extensions.conf', 'musiconhold.conf', 'pjsip.conf', 'queues.conf', 'voicemail.conf'].map((name) => file(name, []));
  return { files, hash: hashOf(files) };
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
