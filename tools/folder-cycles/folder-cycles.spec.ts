import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, folderGraph, layersOf } from './folder-cycles.mjs';

const REPO_SERVICE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/repo-service/src');

describe('repo-service folder layers', () => {
  const graph = folderGraph(REPO_SERVICE);
  const layers = layersOf(REPO_SERVICE);
  const layerOf = (node: string) => layers.indexOf(node.split('/')[0]);

  it('has no folder cycle at all, with each feature folder inside a layer a node of its own', () => {
    expect(layers).toEqual(['shared', 'git-core', 'code', 'tracker']);
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
