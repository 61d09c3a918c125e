import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, folderGraph, layersOf, sourceDirs } from './folder-cycles.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REPO_SERVICE = path.join(ROOT, 'apps/repo-service/src');

describe('repo-service folder layers', () => {
  const graph = folderGraph(REPO_SERVICE);
  const layers = layersOf(REPO_SERVICE);
  const layerOf = (node: string) => layers.indexOf(node.split('/')[0]);

  it('has no folder cycle at all, with each feature folder inside a layer a node of its own', () => {
    expect(layers).toEqual(['foundation', 'git-core', 'code', 'tracker']);
    expect([...graph.keys()]).toEqual(expect.arrayContaining(['git-core/storage', 'code/branches', 'tracker/pulls']));
    expect(cycles(graph)).toEqual([]);
  });
  it('has no folder importing a layer above its own', () => {
    const upward = [...graph].flatMap(([from, to]) => [...to].filter((t) => layerOf(t) > layerOf(from)).map((t) => `${from} → ${t}`));
    expect(upward).toEqual([]);
  });
  it('finds a cycle when there is one', () => {
    const g = new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])], ['d', new Set(['a'])]]);
    expect(cycles(g)).toEqual([['a', 'b', 'c']]);
    expect(cycles(g, ['a', 'b', 'd'])).toEqual([]);
  });
});

describe('every other app and library', () => {
  const dirs = sourceDirs().filter((dir) => dir !== 'apps/repo-service/src');

  it('finds the apps and libraries', () => {
    expect(dirs).toEqual(expect.arrayContaining(['apps/gateway/src', 'apps/runners-service/src', 'libs/platform/src']));
  });
  it.each(dirs)('%s has no import cycle among its first-level folders', (dir) => {
    expect(cycles(folderGraph(path.join(ROOT, dir)))).toEqual([]);
  });
});
