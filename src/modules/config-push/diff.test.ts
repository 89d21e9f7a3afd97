import { parsePatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { diffFiles } from './diff.js';

const file = (name: string, lines: string[]) => ({ name, content: `${lines.join('\n')}\n`, sha256: String(lines.length) + lines[0] });

describe('configuration diffs', () => {
  it('shows a small change as hunks with three lines of context', () => {
    const before = file('extensions.conf', ['[a]', 'exten => 1,1,Answer()', 'same => n,Hangup()', '[b]', 'exten => 2,1,Hangup()']);
    const after = file('extensions.conf', ['[a]', 'exten => 1,1,Answer()', 'same => n,Playback(hello)', 'same => n,Hangup()', '[b]', 'exten => 2,1,Hangup()']);
    const { diff, summary } = diffFiles([before], [after], 3);
    expect(summary).toMatchObject({ base_version: 3, additions: 1, deletions: 0 });
    expect(diff).toContain('+same => n,Playback(hello)');
  });

  it('shows a file that changed too much to diff in time as replaced whole: still a valid unified diff with exact counts', () => {
    const before = file(
      'pjsip.conf',
      Array.from({ length: 3000 }, (_, i) => `old line ${i}`),
    );
    const after = file(
      'pjsip.conf',
      Array.from({ length: 4000 }, (_, i) => `new line ${(i * 7919) % 4000}`),
    );
    const { diff, summary } = diffFiles([before], [after], 1, 1);
    expect(summary.files[0]).toEqual({ name: 'pjsip.conf', status: 'changed', additions: 4000, deletions: 3000 });
    const [patch] = parsePatch(diff);
    expect(patch.hunks).toHaveLength(1);
    expect(patch.hunks[0]).toMatchObject({ oldStart: 1, oldLines: 3000, newStart: 1, newLines: 4000 });
  });
});
