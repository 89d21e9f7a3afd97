import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';

export type FileChange = 'added' | 'removed' | 'changed' | 'unchanged';

export interface FileDiffSummary {
  name: string;
  status: FileChange;
  additions: number;
  deletions: number;
}

export interface DiffSummary {
  /** The version compared against (the last one the PBX took), null before the first push. */
  base_version: number | null;
  additions: number;
  deletions: number;
  files: FileDiffSummary[];
}

interface FileText {
  name: string;
  content: string;
  sha256: string;
}

/**
 * How long the line diff of one file may take. A file that changed nearly everywhere (a first
 * push, thousands of users added) makes Myers' diff quadratic: past half a second it is shown as replaced
 * whole, still a valid unified diff with exact counts.
 */
const DIFF_TIMEOUT_MS = 500;

/**
 * Myers' diff (jsdiff's, which prunes the diagonals that ran off either file) does about one step
 * per line edited per line of the shorter file: 5.7 s for 62 lines growing to 90,000, 27 s for
 * 241 to 185,000 (a loaded two-core machine, about a microsecond a step). A file whose lower bound
 * of that work passes this many steps (seconds, far past the time limit) is shown replaced whole
 * at once, without spending the time limit first.
 */
const HOPELESS_DIFF_STEPS = 4_000_000;

const linesOf = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

/** The lines of a text as the line diff counts them (a last line without its line break included). */
function lineCount(text: string): number {
  if (text === '') return 0;
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return text.endsWith('\n') ? count : count + 1;
}

/**
 * Whether Myers' diff of these texts cannot end within any reasonable time: a lower bound of the
 * lines it must add or remove (no fewer than the lines one text has and the other lacks, counted
 * with repeats) times the lines of the shorter text, against `HOPELESS_DIFF_STEPS`.
 */
function hopelessDiff(before: string, after: string): boolean {
  const n = lineCount(before);
  const m = lineCount(after);
  const shorter = Math.min(n, m) + 1;
  if (Math.abs(n - m) * shorter > HOPELESS_DIFF_STEPS) return true;
  if (Math.max(n, m) * 2 * shorter <= HOPELESS_DIFF_STEPS) return false;
  const counts = new Map<string, number>();
  for (const line of linesOf(before)) counts.set(line, (counts.get(line) ?? 0) + 1);
  let shared = 0;
  for (const line of linesOf(after)) {
    const left = counts.get(line);
    if (left) {
      shared++;
      counts.set(line, left - 1);
    }
  }
  return (n + m - 2 * shared) * shorter > HOPELESS_DIFF_STEPS;
}

/** Each line of the text with its prefix, the whole text's lines joined by line breaks. */
const prefixed = (text: string, prefix: '-' | '+') => prefix + text.replace(/\n$/, '').replaceAll('\n', `\n${prefix}`);

/**
 * The unified diff of a file replaced whole: every old line removed, every new line added, in one
 * hunk, as `formatPatch` writes it (its file headers, its hunk header with the unified format's
 * quirk for an empty side), written straight from the texts.
 */
function wholeFileDiff(oldName: string, newName: string, before: string, after: string): { text: string; additions: number; deletions: number } {
  const deletions = lineCount(before);
  const additions = lineCount(after);
  const headers = formatPatch({ oldFileName: oldName, newFileName: newName, oldHeader: '', newHeader: '', hunks: [] }, FILE_HEADERS_ONLY);
  const oldStart = deletions ? 1 : -1;
  const newStart = additions ? 1 : -1;
  const lines = [`@@ -${oldStart},${deletions} +${newStart},${additions} @@`];
  if (deletions) lines.push(prefixed(before, '-'));
  if (additions) lines.push(prefixed(after, '+'));
  return { text: `${headers}${lines.join('\n')}\n`, additions, deletions };
}

/**
 * A unified diff (`--- a/<file>` / `+++ b/<file>`, three lines of context) of every file that
 * changed from `before` to `after`, and the count of lines added and removed per file. Files are
 * taken in name order; an absent file counts as empty.
 */
export function diffFiles(
  before: FileText[],
  after: FileText[],
  baseVersion: number | null,
  timeoutMs = DIFF_TIMEOUT_MS,
): { diff: string; summary: DiffSummary } {
  const old = new Map(before.map((file) => [file.name, file]));
  const fresh = new Map(after.map((file) => [file.name, file]));
  const names = [...new Set([...old.keys(), ...fresh.keys()])].sort();
  const patches: string[] = [];
  const files: FileDiffSummary[] = [];
  for (const name of names) {
    const a = old.get(name);
    const b = fresh.get(name);
    const status: FileChange = !a ? 'added' : !b ? 'removed' : a.sha256 === b.sha256 ? 'unchanged' : 'changed';
    if (status === 'unchanged') {
      files.push({ name, status, additions: 0, deletions: 0 });
      continue;
    }
    const oldName = a ? `a/${name}` : '/dev/null';
    const newName = b ? `b/${name}` : '/dev/null';
    const before = a?.content ?? '';
    const after = b?.content ?? '';
    const patch = hopelessDiff(before, after) ? undefined : structuredPatch(oldName, newName, before, after, '', '', { context: 3, timeout: timeoutMs });
    if (!patch) {
      const whole = wholeFileDiff(oldName, newName, before, after);
      files.push({ name, status, additions: whole.additions, deletions: whole.deletions });
      patches.push(whole.text);
      continue;
    }
    let additions = 0;
    let deletions = 0;
    for (const hunk of patch.hunks)
      for (const line of hunk.lines) {
        if (line.startsWith('+')) additions++;
        else if (line.startsWith('-')) deletions++;
      }
    files.push({ name, status, additions, deletions });
    if (patch.hunks.length) patches.push(formatPatch(patch, FILE_HEADERS_ONLY));
  }
  return {
    diff: patches.join(''),
    summary: {
      base_version: baseVersion,
      additions: files.reduce((sum, file) => sum + file.additions, 0),
      deletions: files.reduce((sum, file) => sum + file.deletions, 0),
      files,
    },
  };
}
