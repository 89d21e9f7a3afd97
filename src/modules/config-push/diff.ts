import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatch } from 'diff';

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

const linesOf = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

function wholeFilePatch(oldName: string, newName: string, before: string, after: string): StructuredPatch {
  const removed = linesOf(before);
  const added = linesOf(after);
  return {
    oldFileName: oldName,
    newFileName: newName,
    oldHeader: '',
    newHeader: '',
    hunks: [
      {
        oldStart: removed.length ? 1 : 0,
        oldLines: removed.length,
        newStart: added.length ? 1 : 0,
        newLines: added.length,
        lines: [...removed.map((line) => `-${line}`), ...added.map((line) => `+${line}`)],
      },
    ],
  };
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
    const patch =
      structuredPatch(oldName, newName, a?.content ?? '', b?.content ?? '', '', '', { context: 3, timeout: timeoutMs }) ??
      wholeFilePatch(oldName, newName, a?.content ?? '', b?.content ?? '');
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
