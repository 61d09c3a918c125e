import { describe, expect, it } from 'vitest';
import { readMergeAnswer } from './merge-tree-session.js';

const T = '1'.repeat(40);
const U = '2'.repeat(40);
const b = (s: string) => Buffer.from(s, 'utf8');

describe('readMergeAnswer (git merge-tree --write-tree --stdin -z --name-only --no-messages)', () => {
  it('reads a clean merge and a conflicted one with its file names (each once), and says how long each was', () => {
    const clean = `1\0${T}\0\0`;
    const conflict = `0\0${U}\0a.txt\0dir with space/b\0a.txt\0\0`;
    expect(readMergeAnswer(b(clean + conflict))).toEqual({ outcome: { kind: 'clean', tree: T }, length: clean.length });
    expect(readMergeAnswer(b(conflict))).toEqual({
      outcome: { kind: 'conflict', tree: U, files: ['a.txt', 'dir with space/b'] },
      length: conflict.length,
    });
  });

  it('waits for the whole answer', () => {
    const full = `0\0${U}\0a.txt\0\0`;
    for (let cut = 0; cut < full.length; cut++) expect(readMergeAnswer(b(full.slice(0, cut)))).toBeNull();
    expect(readMergeAnswer(b(full))).not.toBeNull();
  });

  it('keeps non-ASCII names and counts bytes, not characters', () => {
    const answer = `0\0${U}\0naïve/日本.txt\0\0`;
    expect(readMergeAnswer(b(answer))).toEqual({
      outcome: { kind: 'conflict', tree: U, files: ['naïve/日本.txt'] },
      length: Buffer.byteLength(answer),
    });
  });

  it('turns anything else into an error of that one answer', () => {
    expect(readMergeAnswer(b(`7\0${T}\0\0`))?.outcome.kind).toBe('error');
    expect(readMergeAnswer(b(`1\0not-a-tree\0\0`))?.outcome.kind).toBe('error');
  });
});
