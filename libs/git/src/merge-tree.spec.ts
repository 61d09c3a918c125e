import { describe, expect, it } from 'vitest';
import { parseMergeTreeOutput } from './merge-tree.js';

describe('git merge-tree --write-tree -z --name-only --no-messages output', () => {
  const tree = 'c7bbe57690eb5ab7faca1fee653a073d89b553b7';
  it('exit 0: a clean merge with its tree', () => {
    expect(parseMergeTreeOutput(`${tree}\0`, 0)).toEqual({ kind: 'clean', tree });
  });
  it('exit 1 with a tree: a conflict with the file names, each once', () => {
    const out = `${tree}\0src/a.txt\0dir with space/b\0src/a.txt\0`;
    expect(parseMergeTreeOutput(out, 1)).toEqual({ kind: 'conflict', tree, files: ['src/a.txt', 'dir with space/b'] });
  });
  it('stops at the section separator (messages, if any, are not file names)', () => {
    const out = `${tree}\0f\0\x001\0f\0Auto-merging\0`;
    expect(parseMergeTreeOutput(out, 1)).toEqual({ kind: 'conflict', tree, files: ['f'] });
  });
  it('exit 1 without a tree (git 2.39 for an unknown commit) is an error with git\'s message', () => {
    expect(parseMergeTreeOutput('', 1, 'merge-tree: nonexist - not something we can merge\n')).toEqual({
      kind: 'error',
      message: 'merge-tree: nonexist - not something we can merge',
    });
  });
  it('exit 128 or a signal is an error', () => {
    expect(parseMergeTreeOutput('', 128, 'fatal: refusing to merge unrelated histories').kind).toBe('error');
    expect(parseMergeTreeOutput('', null).kind).toBe('error');
  });
});
