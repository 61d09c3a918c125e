import { describe, expect, it } from 'vitest';
import { parseCommitLog } from './push-commits.js';

const H1 = '1'.repeat(40);
const H2 = '2'.repeat(40);

/** As seen from git 2.39. */
function record(id: string, message: string, files: string[]): string {
  const header = `\x1e${id}\0Ann\0ann@example.com\0${'2024-01-02T03:04:05+02:00'}\0Cid\0cid@example.com\0${'2024-01-03T00:00:00Z'}\0${message}\0`;
  return files.length ? `${header}\0\n${files.join('\0')}\0` : header;
}

describe('parseCommitLog', () => {
  it('reads commits newest first with their file changes', () => {
    const out = record(H1, 'second\n', ['D', 'a', 'M', 'b', 'A', 'c']) + record(H2, 'first\n\nbody\n', ['A', 'a', 'A', 'b']);
    expect(parseCommitLog(out)).toEqual([
      {
        id: H1,
        authorName: 'Ann',
        authorEmail: 'ann@example.com',
        authorDate: '2024-01-02T03:04:05+02:00',
        committerName: 'Cid',
        committerEmail: 'cid@example.com',
        committerDate: '2024-01-03T00:00:00Z',
        message: 'second\n',
        added: ['c'],
        removed: ['a'],
        modified: ['b'],
      },
      expect.objectContaining({ id: H2, message: 'first\n\nbody\n', added: ['a', 'b'], removed: [], modified: [] }),
    ]);
  });

  it('keeps messages and paths that look like statuses or records in place', () => {
    const out = record(H1, 'A', ['M', 'D', 'A', '\x1eweird name']) + record(H2, 'M\n', []);
    const commits = parseCommitLog(out);
    expect(commits.map((c) => c.id)).toEqual([H1, H2]);
    expect(commits[0]).toMatchObject({ message: 'A', modified: ['D'], added: ['\x1eweird name'] });
    expect(commits[1]).toMatchObject({ message: 'M\n', added: [], removed: [], modified: [] });
  });

  it('counts type changes as modifications', () => {
    expect(parseCommitLog(record(H1, 'x', ['T', 'link']))[0].modified).toEqual(['link']);
  });

  it('is empty for no output and refuses garbage', () => {
    expect(parseCommitLog('')).toEqual([]);
    expect(() => parseCommitLog('\x1enot-a-sha\0a\0b\0c\0d\0e\0f\0g\0')).toThrow(/unexpected git log output/);
  });
});
