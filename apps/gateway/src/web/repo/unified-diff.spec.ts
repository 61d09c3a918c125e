import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from './unified-diff.js';

describe('parseUnifiedDiff', () => {
  it('numbers added, removed and context lines per side', () => {
    const patch = [
      'diff --git a/src/app.ts b/src/app.ts',
      'index 1111111..2222222 100644',
      '--- a/src/app.ts',
      '+++ b/src/app.ts',
      '@@ -3,3 +3,4 @@ function main() {',
      ' const a = 1;',
      '-const b = 2;',
      '+const b = 3;',
      '+const c = 4;',
      ' return a;',
      '\\ No newline at end of file',
      '',
    ].join('\n');
    const [f] = parseUnifiedDiff(patch);
    expect(f).toMatchObject({ oldPath: 'src/app.ts', newPath: 'src/app.ts', status: 'modified', additions: 2, deletions: 1 });
    expect(f.hunks[0].lines.map((l) => [l.kind, l.oldNo, l.newNo, l.text])).toEqual([
      ['context', 3, 3, 'const a = 1;'],
      ['del', 4, null, 'const b = 2;'],
      ['add', null, 4, 'const b = 3;'],
      ['add', null, 5, 'const c = 4;'],
      ['context', 5, 6, 'return a;'],
      ['note', null, null, 'No newline at end of file'],
    ]);
  });

  it('reads added, deleted, renamed, binary and quoted files', () => {
    const patch = [
      'diff --git a/new file.txt b/new file.txt',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/new file.txt',
      '@@ -0,0 +1 @@',
      '+hello',
      'diff --git a/gone.txt b/gone.txt',
      'deleted file mode 100644',
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      'diff --git a/old.md b/docs/new.md',
      'similarity index 100%',
      'rename from old.md',
      'rename to docs/new.md',
      'diff --git a/logo.png b/logo.png',
      'Binary files a/logo.png and b/logo.png differ',
      'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"',
      '--- "a/caf\\303\\251.txt"',
      '+++ "b/caf\\303\\251.txt"',
      '@@ -1 +1 @@',
      '-x',
      '+y',
    ].join('\n');
    const files = parseUnifiedDiff(patch);
    expect(files.map((f) => [f.status, f.oldPath, f.newPath, f.binary])).toEqual([
      ['added', 'new file.txt', 'new file.txt', false],
      ['deleted', 'gone.txt', 'gone.txt', false],
      ['renamed', 'old.md', 'docs/new.md', false],
      ['modified', 'logo.png', 'logo.png', true],
      ['modified', 'café.txt', 'café.txt', false],
    ]);
  });

  it('reads mode changes and the modes of added and deleted files', () => {
    const patch = [
      'diff --git a/run.sh b/run.sh',
      'old mode 100644',
      'new mode 100755',
      'diff --git a/tool b/tool',
      'new file mode 100755',
      'index 0000000..e69de29',
      '--- /dev/null',
      '+++ b/tool',
      '@@ -0,0 +1 @@',
      '+#!/bin/sh',
    ].join('\n');
    expect(parseUnifiedDiff(patch).map((f) => [f.status, f.oldMode, f.newMode, f.blobs])).toEqual([
      ['modified', '100644', '100755', null],
      ['added', null, '100755', '0000000..e69de29'],
    ]);
  });

  it('ignores anything before the first file', () => {
    expect(parseUnifiedDiff('')).toEqual([]);
    expect(parseUnifiedDiff('garbage\n+not a line')).toEqual([]);
  });
});
