import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, folderGraph, sourceDirs } from './folder-cycles.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REPO_SERVICE = path.join(ROOT, 'apps/repo-service/src');
/**
 * repo-service's issue tracker, bottom to top: `tracker/` (shared rows, views, permissions, transactions, editing)
 * ← `issues/`, `pulls/` ← `ref-updates/` ← `pull-merge/`, with `merge/` (git mechanics of merging) and `transport/`
 * beside them.
 */
const TRACKER = ['tracker', 'issues', 'pulls', 'merge', 'ref-updates', 'pull-merge', 'transport'];

describe('repo-service folder layers', () => {
  const graph = folderGraph(REPO_SERVICE);
  const uses = (folder: string) => [...(graph.get(folder) ?? [])].filter((f) => TRACKER.includes(f)).sort();

  it('has no import cycle among the issue tracker, merge, ref-updates and transport folders', () => {
    expect(cycles(graph, TRACKER)).toEqual([]);
  });
  it('keeps the shared helpers neutral and issues/pulls apart from what builds on them', () => {
    expect(uses('tracker')).toEqual([]);
    expect(uses('merge')).toEqual([]);
    expect(uses('pulls')).toEqual(['merge', 'tracker']);
  });
  it('finds a cycle when there is one', () => {
    const g = new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])], ['d', new Set(['a'])]]);
    expect(cycles(g)).toEqual([['a', 'b', 'c']]);
    expect(cycles(g, ['a', 'b', 'd'])).toEqual([]);
  });
});

describe('every other app and library', () => {
  // repo-service has its own case above (its layers are checked folder by folder).
  const dirs = sourceDirs().filter((dir) => dir !== 'apps/repo-service/src');

  it('finds the apps and libraries', () => {
    expect(dirs).toEqual(expect.arrayContaining(['apps/gateway/src', 'apps/runners-service/src', 'libs/platform/src']));
  });
  it.each(dirs)('%s has no import cycle among its first-level folders', (dir) => {
    expect(cycles(folderGraph(path.join(ROOT, dir)))).toEqual([]);
  });
});
