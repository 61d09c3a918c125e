#!/usr/bin/env node
// Folder-level import cycles inside each app (a layer's folders count one by one; tests may reach across). `node
// tools/folder-cycles/folder-cycles.mjs [<app>/src [folder …]]`; exits 1 on a cycle.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** @returns {string[]} */
export function sourceDirs(root = ROOT) {
  return ['apps', 'libs'].flatMap((group) =>
    existsSync(path.join(root, group))
      ? readdirSync(path.join(root, group))
          .sort()
          .map((name) => `${group}/${name}/src`)
          .filter((dir) => existsSync(path.join(root, dir)))
      : [],
  );
}

/**
 * The app's layer folders (`<app>/layers.json`, next to `src`), bottom to top; none when the app has no layers.
 * @param {string} srcDir @returns {string[]}
 */
export function layersOf(srcDir) {
  const file = path.join(srcDir, '..', 'layers.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).layers : [];
}

/**
 * Folder → the folders its (non-test) files import; inside a layer the layer's own files are the node named after it.
 * @param {string} srcDir @returns {Map<string, Set<string>>}
 */
export function folderGraph(srcDir) {
  const layers = layersOf(srcDir);
  const node = (parts) => (layers.includes(parts[0]) && parts.length >= 3 ? `${parts[0]}/${parts[1]}` : parts[0]);
  const graph = new Map();
  for (const entry of readdirSync(srcDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || /\.(int-)?spec\.ts$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const from = path.relative(srcDir, file).split(path.sep);
    if (from.length < 2 || from[0] === 'generated') continue;
    const fromNode = node(from);
    const edges = graph.get(fromNode) ?? new Set();
    graph.set(fromNode, edges);
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = path.relative(srcDir, path.resolve(path.dirname(file), m[1])).split(path.sep);
      if (target.length >= 2 && target[0] !== '..' && node(target) !== fromNode) edges.add(node(target));
    }
  }
  return graph;
}

/**
 * The strongly connected sets of more than one folder (Tarjan), each sorted.
 * @param {Map<string, Set<string>>} graph @param {string[] | null} [only] @returns {string[][]}
 */
export function cycles(graph, only = null) {
  const keep = (n) => !only || only.includes(n);
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of [...(graph.get(v) ?? [])].filter(keep)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const set = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        set.push(w);
      } while (w !== v);
      if (set.length > 1) out.push(set.sort());
    }
  };
  for (const v of [...graph.keys()].filter(keep)) if (!idx.has(v)) visit(v);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [srcDir, ...only] = process.argv.slice(2);
  let failed = false;
  for (const dir of srcDir ? [srcDir] : sourceDirs().map((d) => path.join(ROOT, d))) {
    const graph = folderGraph(dir);
    const found = cycles(graph, only.length ? only : null);
    const name = path.relative(process.cwd(), dir) || dir;
    for (const set of found) {
      console.log(`${name}: cycle: ${set.join(' ↔ ')}`);
      for (const a of set) console.log(`  ${a} → ${[...graph.get(a)].filter((b) => set.includes(b)).join(', ')}`);
    }
    if (!found.length) console.log(`no folder cycles in ${name}${only.length ? ` among ${only.join(', ')}` : ''}`);
    failed ||= found.length > 0;
  }
  process.exit(failed ? 1 : 0);
}
