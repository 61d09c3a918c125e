import { describe, expect, it } from 'vitest';
import { normalizeGitDate, parseDiffLog, WalkParser, type WalkedCommit } from './log-format.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

const header = (sha: string) => `\x1e${sha}\0`;

describe('parseDiffLog', () => {
  it('parses ids, raw entries and numstat of several commits', () => {
    const out =
      header(A) +
      '\n:100644 100644 1234567 89abcde M\0src/a.txt\0' +
      ':000000 100644 0000000 89abcde A\0new file\0' +
      '3\t1\tsrc/a.txt\0' +
      '-\t-\tnew file\0' +
      header(B) +
      '\n:000000 100644 0000000 1111111 A\0README.md\0' +
      '1\t0\tREADME.md\0';
    expect(parseDiffLog(Buffer.from(out))).toEqual([
      {
        sha: A,
        files: [
          { path: 'src/a.txt', status: 'M' },
          { path: 'new file', status: 'A' },
        ],
        stats: { additions: 3, deletions: 1 },
      },
      { sha: B, files: [{ path: 'README.md', status: 'A' }], stats: { additions: 1, deletions: 0 } },
    ]);
  });

  it('never mistakes a file name for a commit header', () => {
    const evil = `\x1e${C}`;
    const out = header(A) + `\n:100644 000000 1234567 0000000 D\0${evil}\0` + header(B);
    const commits = parseDiffLog(out);
    expect(commits.map((c) => c.sha)).toEqual([A, B]);
    expect(commits[0].files).toEqual([{ path: evil, status: 'D' }]);
  });

  it('parses commits without diff output', () => {
    expect(parseDiffLog(header(A) + header(B))).toEqual([{ sha: A }, { sha: B }]);
  });

  it('maps rename/copy scores to the bare status letter', () => {
    const out = header(A) + '\n:100644 100644 1234567 89abcde R100\0x\0';
    expect(parseDiffLog(out)[0].files).toEqual([{ path: 'x', status: 'R' }]);
  });

  it('rejects output it does not understand', () => {
    expect(() => parseDiffLog('garbage\0')).toThrow();
    expect(() => parseDiffLog(header(A) + 'what\0')).toThrow();
    expect(() => parseDiffLog('\x1enot-an-id\0')).toThrow();
    expect(() => parseDiffLog(header(A) + ':100644 100644 1234567 89abcde M\0')).toThrow();
  });

  it('parses nothing as no commits', () => {
    expect(parseDiffLog(Buffer.alloc(0))).toEqual([]);
  });
});

describe('normalizeGitDate', () => {
  it('writes a zero offset as Z and keeps others', () => {
    expect(normalizeGitDate('2024-01-02T15:04:05+00:00')).toBe('2024-01-02T15:04:05Z');
    expect(normalizeGitDate('2024-01-02T15:04:05-07:00')).toBe('2024-01-02T15:04:05-07:00');
  });
});

describe('WalkParser', () => {
  it('reports each changed path with its commit, across arbitrary chunk boundaries', () => {
    const out = Buffer.from(
      `\x1e${A}\x002024-01-03T00:00:00+00:00\x002024-01-02T00:00:00+01:00\0` +
        '\n::100644 100644 100644 1 2 3 MM\0dir/a.txt\0' +
        `\x1e${B}\x002024-01-01T00:00:00+00:00\x002024-01-01T00:00:00+00:00\0\0` +
        `\x1e${C}\x002023-12-31T00:00:00+00:00\x002023-12-31T00:00:00+00:00\0` +
        '\n:000000 100644 0 1 A\0ü/b\0:000000 100644 0 1 A\0c\0',
    );
    for (const size of [1, 2, 3, 7, 64, out.length]) {
      const seen: [string, string, string][] = [];
      const p = new WalkParser((c: WalkedCommit, path) => seen.push([c.sha, path, c.authorDate]));
      for (let i = 0; i < out.length; i += size) p.push(out.subarray(i, i + size));
      p.end();
      expect(seen).toEqual([
        [A, 'dir/a.txt', '2024-01-02T00:00:00+01:00'],
        [C, 'ü/b', '2023-12-31T00:00:00Z'],
        [C, 'c', '2023-12-31T00:00:00Z'],
      ]);
    }
  });
});
