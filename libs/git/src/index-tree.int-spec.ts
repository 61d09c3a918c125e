import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitFixture, removeDir, tempDir } from '../../../test/support/git-fixture.js';
import { commitTree, resolveBranch, updateRef } from './plumbing.js';
import { writeBlob, writeEditedTree } from './index-tree.js';

let root: string;
let fx: GitFixture;
let base: string;

const git = (...args: string[]) => execFileSync('git', ['--git-dir', fx.bare, ...args], { encoding: 'utf8' });
const lsTree = (tree: string) => git('ls-tree', '-r', tree).trim().split('\n');
const who = { name: 'Ann', email: 'ann@example.com', date: '@1500000000 +0200' };

beforeAll(() => {
  root = tempDir('cairn-index-tree-');
  fx = new GitFixture(root, 'ann', 'plumbing');
  fx.commit({ message: 'base', date: 1_400_000_000, files: { 'a.txt': 'a\n', 'dir/b.txt': 'b\n', 'run.sh': { exec: '#!/bin/sh\n' } } });
  fx.publish();
  base = git('rev-parse', 'refs/heads/main').trim();
});

afterAll(() => removeDir(root));

describe('writeEditedTree (a throw-away index over the bare repository)', () => {
  it('adds, replaces, moves and removes paths of the base tree; the repository has no index and no work tree', async () => {
    const blob = await writeBlob(fx.bare, Buffer.from('new\n'));
    expect(git('cat-file', '-p', blob)).toBe('new\n');
    const tree = await writeEditedTree(fx.bare, base, [
      { path: 'dir/b.txt', remove: true },
      { path: 'moved/b.txt', mode: '100644', blob: git('rev-parse', `${base}:dir/b.txt`).trim() },
      { path: 'a.txt', mode: '100644', blob },
      { path: 'deep/er/c.txt', mode: '100755', blob },
    ]);
    const entries = lsTree(tree).map((l) => l.replace(/ [0-9a-f]{40}\t/, ' '));
    expect(entries).toEqual([
      '100644 blob a.txt',
      '100755 blob deep/er/c.txt',
      '100644 blob moved/b.txt',
      '100755 blob run.sh',
    ]);
    expect(() => git('rev-parse', '--verify', '-q', `${tree}:dir`)).toThrow();
    expect(git('rev-parse', `${base}:dir`).trim()).toMatch(/^[0-9a-f]{40}$/);
    expect(execFileSync('ls', [fx.bare], { encoding: 'utf8' })).not.toMatch(/^index$/m);
  });

  it('starts from an empty tree when there is no base (an empty repository)', async () => {
    const blob = await writeBlob(fx.bare, Buffer.from('first\n'));
    const tree = await writeEditedTree(fx.bare, null, [{ path: 'first.txt', mode: '100644', blob }]);
    expect(lsTree(tree)).toEqual([`100644 blob ${blob}\tfirst.txt`]);
  });

  it('fails rather than leave out a path git refuses to write', async () => {
    const blob = await writeBlob(fx.bare, Buffer.from('x\n'));
    await expect(writeEditedTree(fx.bare, base, [{ path: 'GIT~1/config', mode: '100644', blob }])).rejects.toThrow(/Ignoring path/i);
  });

  it('makes a commit that moves the branch only from the expected tip (a concurrent push is never overwritten)', async () => {
    const blob = await writeBlob(fx.bare, Buffer.from('race\n'));
    const tree = await writeEditedTree(fx.bare, base, [{ path: 'race.txt', mode: '100644', blob }]);
    const ours = await commitTree(fx.bare, tree, [base], 'ours\n', who, who);
    // Someone pushes first.
    const theirs = await commitTree(fx.bare, tree, [base], 'theirs\n', who, who);
    expect(await updateRef(fx.bare, 'refs/heads/main', theirs, base)).toBe(true);
    expect(await updateRef(fx.bare, 'refs/heads/main', ours, base)).toBe(false);
    expect(await resolveBranch(fx.bare, 'main')).toBe(theirs);
    expect(git('log', '-1', '--format=%an <%ae> %ad', '--date=raw', theirs).trim()).toBe('Ann <ann@example.com> 1500000000 +0200');
  });
});
