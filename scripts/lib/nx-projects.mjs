// The Nx projects as Nx reads them, for tools that need them without starting Nx (the module-boundaries rule,
// scripts/test.mjs).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** @typedef {{ name: string, root: string, tags: string[], packageName?: string }} Project */

/** @param {string} file */
function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Every `project.json` and workspace package.json (`dir/*` globs); paths relative to `workspaceRoot`, `/`-separated.
 * @param {string} workspaceRoot @returns {Project[]}
 */
export function readProjects(workspaceRoot) {
  /** @type {Map<string, Project>} */
  const byRoot = new Map();
  /** @param {string} root */
  const add = (root) => {
    const pkg = readJson(path.join(workspaceRoot, root, 'package.json'));
    const pj = readJson(path.join(workspaceRoot, root, 'project.json'));
    if (!pkg && !pj) return;
    const tags = [...(pkg?.nx?.tags ?? []), ...(pj?.tags ?? [])];
    byRoot.set(root, { name: pj?.name ?? pkg?.name ?? root, root, tags, packageName: pkg?.name });
  };
  const rootPkg = readJson(path.join(workspaceRoot, 'package.json')) ?? {};
  if (existsSync(path.join(workspaceRoot, 'project.json'))) add('.');
  for (const glob of rootPkg.workspaces ?? []) {
    const dir = String(glob).replace(/\/\*$/, '');
    if (!existsSync(path.join(workspaceRoot, dir))) continue;
    for (const e of readdirSync(path.join(workspaceRoot, dir), { withFileTypes: true })) {
      if (e.isDirectory()) add(`${dir}/${e.name}`);
    }
  }
  return [...byRoot.values()];
}
