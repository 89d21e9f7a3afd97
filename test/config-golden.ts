import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ConfigurationSnapshot } from '../src/modules/config-push/index.js';

/** The configuration compiler's golden files (regenerated with UPDATE_GOLDEN=1). */
const GOLDEN = join(import.meta.dirname, '../src/modules/config-push/compiler/golden');

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * The demo's ids, generated SIP user names and sealed secrets are random: they are renamed in
 * an order that does not depend on them (arrays sorted by their content with ids masked, then
 * names given in order of first appearance), so the golden files hold the demo's structure.
 */
export function normaliseSnapshot(snapshot: ConfigurationSnapshot): ConfigurationSnapshot {
  const masked = (value: unknown) =>
    JSON.stringify(value)
      .replace(UUID, 'X')
      .replace(/v1\.[A-Za-z0-9+/=.]+/g, 'S')
      .replace(/sip[0-9a-f]{12}/g, 'U');
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      const items = value.map(sorted);
      // Arrays of ids-bearing rows are ordered by content; arrays whose order is data (nodes, steps, members) are kept.
      return items.length && typeof items[0] === 'object' && items[0] !== null && 'id' in items[0] && !('key' in items[0]) && !('penalty' in items[0])
        ? [...items].sort((a, b) => (masked(a) < masked(b) ? -1 : masked(a) > masked(b) ? 1 : 0))
        : items;
    }
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sorted(v)]));
    return value;
  };
  let text = JSON.stringify(sorted({ ...snapshot, webrtcAccounts: [...snapshot.webrtcAccounts].sort((a, b) => (masked(a) < masked(b) ? -1 : 1)) }));
  const aliases = new Map<string, string>();
  const alias = (pattern: RegExp, make: (n: number) => string) => {
    text = text.replace(pattern, (match) => {
      if (!aliases.has(match)) aliases.set(match, make(aliases.size + 1));
      return aliases.get(match)!;
    });
  };
  alias(UUID, (n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`);
  alias(/v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]*/g, (n) => `sealed-secret-${n}`);
  alias(/sip[0-9a-f]{12}/g, (n) => `sipdevice${n}`);
  alias(/webrtc_[0-9a-f]{8}/g, (n) => `webrtc_user${n}`);
  return JSON.parse(text) as ConfigurationSnapshot;
}

/** Compares the files with the golden ones; `UPDATE_GOLDEN=1` writes them instead. */
export function expectGolden(dir: string, files: Array<{ name: string; content: string }>): void {
  const path = join(GOLDEN, dir);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(path, { recursive: true });
    for (const name of readdirSync(path)) if (!files.some((f) => f.name === name)) throw new Error(`Stale golden file ${dir}/${name}: delete it.`);
    for (const file of files) writeFileSync(join(path, file.name), file.content);
    return;
  }
  expect(readdirSync(path).sort(), `golden files of ${dir} (UPDATE_GOLDEN=1 regenerates them)`).toEqual(files.map((f) => f.name).sort());
  for (const file of files)
    expect(file.content, `${dir}/${file.name} differs from its golden file (UPDATE_GOLDEN=1 regenerates it)`).toBe(readFileSync(join(path, file.name), 'utf8'));
}

/** Each line is a comment, a section header or a `key = value` / `key => value`: nothing else. */
export function expectWellFormed(content: string): void {
  for (const line of content.split('\n').slice(0, -1)) {
    expect(line, 'a configuration line').toMatch(
      /^(|; [^\n]*|;|\[[A-Za-z0-9_.-]+\](\((!|[A-Za-z0-9_.-]+)(,[A-Za-z0-9_.-]+)*\))?|[A-Za-z0-9_*#+.-]+ =>? [^\n]*)$/,
    );
  }
  expect(content.endsWith('\n')).toBe(true);
}
